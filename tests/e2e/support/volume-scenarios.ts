import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ask, toolCall, useReplayEngine } from './drive-agent';
import { pageHeap, workerHeap } from './heap-usage';
import { currentServiceWorker, launchExtension, type LaunchedExtension } from './launch-extension';
import { measureUnderLoad, type LoadFigures } from './measure-under-load';
import { serveFixtures, type FixtureServer } from './serve-fixtures';
import { tabIdOf } from './tab-id-of';

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/volume');

export interface ChurnOptions {
  perSecond: number;
  durationMs: number;
  /** Churning tools alive at any time. */
  keep: number;
}

/** What the churning page did, as it counted. */
export interface ChurnCounts {
  registered: number;
  removed: number;
  live: number;
  seconds: number;
}

/** The extension in Chromium and the volume fixture pages; one page and panel per scenario. */
export class VolumeLab {
  private constructor(
    readonly extension: LaunchedExtension,
    readonly server: FixtureServer,
  ) {}

  static async start(): Promise<VolumeLab> {
    const [extension, server] = await Promise.all([launchExtension({ webmcp: true }), serveFixtures(fixturesDir)]);
    return new VolumeLab(extension, server);
  }

  async close(): Promise<void> {
    await this.extension.close();
    await this.server.close();
  }

  /** A fixture page (or a blank one) and a side panel following its tab, connected. */
  async open(path?: string): Promise<{ page: Page; panel: Page }> {
    const page = await this.extension.context.newPage();
    if (path) await page.goto(this.server.url(path));
    const panel = await this.extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await panel.getByTestId('chat-input').waitFor();
    return { page, panel };
  }

  async replay(replies: string[], chunkSize = 4, delayMs = 0): Promise<void> {
    await useReplayEngine(await currentServiceWorker(this.extension.context), { replies, chunkSize, delayMs });
  }

  /** The page registers and removes tools while the agent answers a request that uses one of its tools. */
  async churn(options: ChurnOptions) {
    const { page, panel } = await this.open('churn.html');
    await waitForToolCount(panel, 1);
    await useReplayEngine(await currentServiceWorker(this.extension.context), {
      replies: [`${'Let me read the status of the page first. '.repeat(4)}${toolCall('read_status', {})}`, 'The page works.'],
      chunkSize: 2,
      delayMs: 10,
    });
    const { result, figures } = await measureUnderLoad({ panel, page }, async ({ withoutTyping }) => {
      const churning = page.evaluate((churn) => (window as unknown as ChurnPage).startChurn(churn), options);
      // Awaited below; should the request fail first, the churn's own failure must not go unhandled.
      churning.catch(() => undefined);
      await withoutTyping(() => ask(panel, 'what does the page say about its status?'));
      await panel.getByTestId('turn').getByText('The page works.').waitFor({ timeout: options.durationMs + 10_000 });
      return churning;
    });
    // Once the page is still, the panel lists exactly what is left: the steady tool and the last few.
    const settleStarted = performance.now();
    await waitForToolCount(panel, options.keep + 1);
    const settleMs = performance.now() - settleStarted;
    const card = await panel.locator('[data-testid=tool-card][data-name=read_status]').getAttribute('data-state');
    await page.close();
    await panel.close();
    return { figures, counts: result, settleMs, statusCard: card };
  }

  /** A page with 500 tools loads while the panel watches, then the agent finds and calls one of them. */
  async manyTools() {
    const { page, panel } = await this.open();
    await this.replay([toolCall('track_parcel', { tracking: 'ZX-42' }), 'Parcel ZX-42 left the depot this morning.']);
    const { result, figures } = await measureUnderLoad({ panel, page }, async ({ withoutTyping }) => {
      await page.goto(this.server.url('many-tools.html'));
      const listedMs = await waitForToolCount(panel, 500);
      await withoutTyping(() => ask(panel, 'where is my parcel ZX-42? track it'));
      await panel.getByTestId('turn').getByText('Parcel ZX-42 left the depot this morning.').last().waitFor({ timeout: 15_000 });
      return listedMs;
    });
    const cards = await cardStates(panel);
    const calls = await page.locator('#calls').textContent();
    await page.close();
    await panel.close();
    return { figures, listedMs: result, cards, pageCalls: Number(calls) };
  }

  /** A tool returns 10 MB, twice in one run. */
  async bigResult() {
    const { page, panel } = await this.open('big-result.html');
    await waitForToolCount(panel, 1);
    await this.replay([toolCall('export_everything', {}), toolCall('export_everything', { again: true }), 'The export is done.']);
    const { figures } = await measureUnderLoad({ panel, page }, async ({ withoutTyping }) => {
      await withoutTyping(() => ask(panel, 'export every record'));
      await panel.getByTestId('turn').getByText('The export is done.').waitFor({ timeout: 30_000 });
    });
    const results = panel.getByTestId('tool-result');
    const shownResult = (await results.first().textContent()) ?? '';
    const resultSummary = (await panel.getByTestId('tool-card').first().locator('summary').first().textContent()) ?? '';
    const cards = await cardStates(panel);
    await page.close();
    await panel.close();
    return { figures, cards, shownResult, resultSummary };
  }

  /**
   * The model answers with 1 MB of Markdown, streamed in four-character pieces; then a short
   * request follows, and a new chat lets the memory go.
   */
  async longReply(characters: number) {
    const { page, panel } = await this.open('big-result.html');
    const ending = '\n\nThe end of the long answer.';
    const reply = longMarkdown(characters - ending.length) + ending;
    await this.replay([reply]);
    const { figures } = await measureUnderLoad({ panel }, async ({ withoutTyping }) => {
      await withoutTyping(() => ask(panel, 'tell me everything'));
      // About 45 s on a quiet two-core machine, twice that beside other work: the time is reported, not judged.
      await waitForLastBlock(panel, 'The end of the long answer.', 200_000);
    });
    const shownCharacters = ((await panel.getByTestId('prose').last().textContent()) ?? '').length;

    await this.replay(['In short: it is long.']);
    await ask(panel, 'and in short?');
    await waitForLastBlock(panel, 'In short: it is long.', 10_000);
    const rememberedAnswer = await rememberedAnswerLength(panel, 'and in short?');

    await panel.getByTestId('new-chat').click();
    await panel.getByTestId('turn').first().waitFor({ state: 'detached' });
    const afterNewChat = { worker: await workerHeap(panel, { collectGarbage: true }), panel: await pageHeap(panel, { collectGarbage: true }) };
    await page.close();
    await panel.close();
    return { figures, replyCharacters: reply.length, shownCharacters, rememberedAnswer, afterNewChat };
  }

  /**
   * A Markdown reply of `characters` characters streamed at about `tokensPerSecond` (a token taken
   * as four characters, one piece each) into a side panel whose CPU runs `slowdown` times slower
   * (Chrome's CPU throttling): a slow laptop, while the person types.
   */
  async replyOnSlowCpu(characters: number, tokensPerSecond: number, slowdown: number) {
    const { page, panel } = await this.open('big-result.html');
    const ending = '\n\nThe end of the answer.';
    await this.replay([longMarkdown(characters - ending.length) + ending], 4, Math.round(1000 / tokensPerSecond));
    const cdp = await panel.context().newCDPSession(panel);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    try {
      const { figures } = await measureUnderLoad({ panel }, async ({ withoutTyping }) => {
        await withoutTyping(() => ask(panel, 'tell me about it'));
        await waitForLastBlock(panel, 'The end of the answer.', 300_000);
      });
      return figures;
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
      await page.close();
      await panel.close();
    }
  }

  /**
   * The model answers with one Markdown block of `characters` characters (a list or a table),
   * streamed in 64-character pieces every 10 ms (200 kB in about half a minute).
   */
  async longBlockReply(shape: 'list' | 'table', characters: number) {
    const { page, panel } = await this.open('big-result.html');
    const ending = '\n\nThe end of the long answer.';
    const reply = (shape === 'list' ? longList(characters) : longTable(characters)) + ending;
    await this.replay([reply], 64, 10);
    const { figures } = await measureUnderLoad({ panel }, async ({ withoutTyping }) => {
      await withoutTyping(() => ask(panel, 'list everything'));
      await waitForLastBlock(panel, 'The end of the long answer.', 200_000);
    });
    const shownRows = await panel.getByTestId('prose').last().locator(shape === 'list' ? 'li' : 'tbody tr').count();
    await page.close();
    await panel.close();
    return { figures, shownRows };
  }
}

export type VolumeFigures = LoadFigures;

interface ChurnPage {
  startChurn(options: ChurnOptions): Promise<ChurnCounts>;
}

/** Waits until the panel's header counts `count` tools; returns how long that took (ms). */
async function waitForToolCount(panel: Page, count: number, timeoutMs = 10_000): Promise<number> {
  const started = performance.now();
  const label = `${count} ${count === 1 ? 'tool' : 'tools'}`;
  await panel.locator('.site-detail', { hasText: new RegExp(`^${label}`) }).waitFor({ timeout: timeoutMs });
  return performance.now() - started;
}

/**
 * Waits until the last turn has ended and its last Markdown block shows `text`. Looking only
 * there keeps the check cheap: searching the text of a 1 MB conversation at every poll would
 * itself freeze the panel this test measures.
 */
async function waitForLastBlock(panel: Page, text: string, timeoutMs: number): Promise<void> {
  const check = (wanted: string) => {
    const turns = document.querySelectorAll('[data-testid=turn]');
    const turn = turns[turns.length - 1];
    if (!turn || turn.getAttribute('aria-busy') !== 'false') return false;
    const proses = turn.querySelectorAll('[data-testid=prose]');
    const lastGroup = proses[proses.length - 1]?.lastElementChild;
    return lastGroup?.lastElementChild?.textContent?.includes(wanted) ?? false;
  };
  await panel.waitForFunction(check, text, { timeout: timeoutMs, polling: 200 });
}

function cardStates(panel: Page): Promise<Array<[string | null, string | null]>> {
  return panel.getByTestId('tool-card').evaluateAll((cards) => cards.map((card) => [card.getAttribute('data-name'), card.getAttribute('data-state')]));
}

/** Markdown of `characters` characters: headings, paragraphs with inline marks and links, lists. */
export function longMarkdown(characters: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index += 1) {
    const part = `## Part ${index}\n\nParagraph ${index} of a very long answer, with **bold** words, \`code\` and [a link](https://example.com/${index}).\n\n- one item\n- another item\n\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, characters);
}

/** A numbered list of about `characters` characters, each item with inline marks and a link. */
export function longList(characters: number): string {
  const items: string[] = [];
  let length = 0;
  for (let index = 1; length < characters; index += 1) {
    const item = `${index}. Item ${index}, with **bold** words, \`code\` and [a link](https://example.com/${index})\n`;
    items.push(item);
    length += item.length;
  }
  return items.join('');
}

/** A table of about `characters` characters: a header, an aligned column and inline marks in its cells. */
export function longTable(characters: number): string {
  const rows = ['| # | name | price | note |\n', '|---|---|---:|---|\n'];
  let length = 0;
  for (let index = 1; length < characters; index += 1) {
    const row = `| ${index} | Widget ${index} | ${index}.99 | **fine** and \`ok\` |\n`;
    rows.push(row);
    length += row.length;
  }
  return rows.join('');
}

/** How long the earlier answer was in the prompt of the run for `request`, read from its trace. */
function rememberedAnswerLength(panel: Page, request: string): Promise<number> {
  return panel.evaluate(async (wanted) => {
    const database = await new Promise<IDBDatabase>((done, fail) => {
      const opening = indexedDB.open('webmcp-agent-traces');
      opening.onsuccess = () => done(opening.result);
      opening.onerror = () => fail(opening.error);
    });
    // A method, not a function in a constant: the TypeScript runner would rename that, and the page lacks its helper.
    const stores = {
      readAll(store: string) {
        return new Promise<unknown[]>((done, fail) => {
          const reading = database.transaction(store).objectStore(store).getAll();
          reading.onsuccess = () => done(reading.result);
          reading.onerror = () => fail(reading.error);
        });
      },
    };
    const runs = (await stores.readAll('runs')) as Array<{ id: string; request: string }>;
    const run = runs.find((candidate) => candidate.request === wanted);
    const steps = (await stores.readAll('steps')) as Array<{ runId: string; step: number; messages: Array<{ role: string; content: string }> }>;
    database.close();
    const first = steps.find((step) => step.runId === run?.id && step.step === 1);
    return first?.messages.find((message) => message.role === 'assistant')?.content.length ?? -1;
  }, request);
}
