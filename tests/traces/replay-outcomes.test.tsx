// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import type { StoredTrace } from '@/lib/traces/trace-schema';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import { recordShopRun } from './support/record-run';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { createShopPage } from './support/shop-page';
import { openTestStore } from './support/trace-stores';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  viewer = undefined;
  fakeBrowser.reset();
});

/** The shop run "mugs", recorded an hour ago, then stored again as `change` makes it. */
async function storeWithMugs(change: (trace: StoredTrace) => StoredTrace): Promise<TraceStore> {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await recordShopRun({ recorder, runId: 'mugs', startedAt: Date.now() - 3_600_000 });
  await recorder.flush();
  await store.putTraces([change(structuredClone((await store.getTrace('mugs'))!))]);
  return store;
}

/** Replays "mugs" in the shop's tab 7 from the viewer, and gives what the replay panel says first. */
async function replayShown(store: TraceStore): Promise<{ error?: string; result?: string }> {
  viewer = await mountViewer(store, new Map([[7, createShopPage()]]));
  await viewer.act(() => viewer!.model.open('mugs'));
  await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
  await viewer.click(viewer.find('replay-start'));
  await viewer.until(() => ['replay-error', 'replay-result', 'replay-confirm'].some((testId) => viewer!.find(testId) !== null), 'how the replay went');
  return { error: viewer.find('replay-error')?.textContent ?? undefined, result: viewer.find('replay-result')?.textContent ?? undefined };
}

describe('how a replay ends', () => {
  it('says there is nothing to replay in a run stopped before the model finished its first reply', async () => {
    const store = await storeWithMugs(({ run, steps }) => ({
      run: { ...run, outcome: 'stopped', answer: undefined, stepCount: 1 },
      steps: [{ ...steps[0]!, complete: false, calls: [] }],
    }));
    expect(await replayShown(store)).toEqual({ error: 'Nothing to replay: the model finished no reply in this run.' });
  });
});
