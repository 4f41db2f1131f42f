import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoredTraces } from './support/stored-traces';
import {
  chromiumAvailable,
  InspectorPage,
  launchExtension,
  serveFixtures,
  tabIdOf,
  type FixtureServer,
  type LaunchedExtension,
} from './support';
import { ask, toolCall, useReplayEngine } from './support/drive-agent';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/isolation');
/** Forged rounds per burst (twelve messages each) and milliseconds between bursts: 60,000 a second. */
const roundsPerBurst = 100;
const burstEveryMs = 20;
/** Tool calls timed before and during the flood. */
const callsTimed = 6;
/** A real call during the flood must answer within this (the page's own thread is what the flood fills). */
const promptMs = 500;

interface FloodReport {
  forged: number;
  echoRuns: number;
  bridgedRuns: number;
  burstMs: number[];
  heard: string[];
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;

describe.skipIf(!chromiumAvailable)('a page that forges the extension’s bridge messages, in volume', () => {
  let extension: LaunchedExtension;
  let server: FixtureServer;
  let page: Page;
  let inspector: InspectorPage;
  let tabId: number;

  beforeAll(async () => {
    [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir)]);
    page = await extension.context.newPage();
    tabId = await tabIdOf(page);
    inspector = await InspectorPage.open(extension, tabId);
    await page.goto(server.url('forger.html'));
    await inspector.waitForTools(['bridged_echo', 'echo'], 5_000);
  });
  afterAll(async () => {
    await extension?.close();
    await server?.close();
  });

  /** Runs each tool by hand `callsTimed` times; the durations the inspector shows, in ms. */
  async function timeCalls(): Promise<number[]> {
    // A page in a background tab renders late; the person would be looking at the inspector.
    await inspector.page.bringToFront();
    const durations: number[] = [];
    for (let index = 0; index < callsTimed; index += 1) {
      for (const name of ['echo', 'bridged_echo']) {
        const run = await inspector.run(name, { text: `call ${index}` });
        expect(run).toMatchObject({ isError: false, text: `${name === 'echo' ? 'echo' : 'bridged echo'}: call ${index}` });
        durations.push(Number(/took (\d+) ms/.exec(run.meta)?.[1]));
      }
    }
    return durations;
  }

  /** A whole agent run through the bridge, as a person asks for it; how long until the answer shows, in ms. */
  async function timeAgentRun(panel: Page, request: string): Promise<number> {
    await useReplayEngine(extension.serviceWorker, { replies: [toolCall('bridged_echo', { text: request }), `It said ${request}.`] });
    await panel.bringToFront();
    const asked = Date.now();
    await ask(panel, request);
    await panel.getByTestId('turn').getByText(`It said ${request}.`).waitFor({ timeout: 10_000 });
    return Date.now() - asked;
  }

  it('changes nothing and slows nothing: no tool appears, no forged answer counts, nothing starts, real calls answer promptly', async () => {
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    await panel.getByTestId('chat-input').waitFor();
    const quiet = await timeCalls();
    const quietRunMs = await timeAgentRun(panel, 'hello');
    await page.evaluate(({ rounds, every }) => (window as unknown as { startFlood(rounds: number, every: number): void }).startFlood(rounds, every), {
      rounds: roundsPerBurst,
      every: burstEveryMs,
    });
    await page.waitForTimeout(500);
    // Nothing the page forged started a run.
    expect(await panel.getByTestId('turn').count()).toBe(1);
    // The page's real changes still come through while it floods.
    await page.evaluate(() => (window as unknown as { registerLate(): Promise<void> }).registerLate());
    await inspector.waitForTools(['bridged_echo', 'echo', 'late_tool'], 3_000);
    const flooded = await timeCalls();
    const floodedRunMs = await timeAgentRun(panel, 'goodbye');
    const report = await page.evaluate(() => (window as unknown as { stopFlood(): FloodReport }).stopFlood());

    expect(report.forged).toBeGreaterThan(50_000);
    // Nothing the extension said reached the page, and the page's tools ran only when asked.
    expect(report.heard).toEqual([]);
    expect([report.echoRuns, report.bridgedRuns]).toEqual([callsTimed * 2, callsTimed * 2 + 2]);
    expect(await inspector.toolNames()).toEqual(['bridged_echo', 'echo', 'late_tool']);
    expect((await inspector.dropped()).map((entry) => entry.name)).toEqual([]);
    // The only runs are the ones the person asked for; their cards show the real answers.
    expect(await panel.getByTestId('tool-card').allTextContents()).toEqual([expect.stringContaining('bridged echo: hello'), expect.stringContaining('bridged echo: goodbye')]);
    expect((await readStoredTraces(panel)).runs.filter((run) => run.tabId === tabId).map((run) => run.request).sort()).toEqual(['goodbye', 'hello']);

    console.log(
      `forged ${report.forged.toLocaleString('en-US')} messages; a burst of ${roundsPerBurst * 12} took ${median(report.burstMs).toFixed(1)} ms (median); ` +
        `tool calls: median ${median(quiet)} ms quiet, ${median(flooded)} ms flooded (max ${Math.max(...flooded)} ms); ` +
        `agent run ${quietRunMs} ms quiet, ${floodedRunMs} ms flooded`,
    );
    expect(median(flooded)).toBeLessThan(promptMs);
    expect(floodedRunMs).toBeLessThan(2_000);
  });
});
