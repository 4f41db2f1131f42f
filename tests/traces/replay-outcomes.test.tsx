// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { StoredTrace } from '@/lib/traces/trace-schema';
import type { TraceStore } from '@/lib/traces/trace-store';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { createShopPage, type ShopPage } from './support/shop-page';
import { openStoreWithMugs } from './support/trace-stores';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  viewer = undefined;
  fakeBrowser.reset();
});

/** The shop run "mugs", recorded an hour ago, then stored again as `change` makes it. */
async function storeWithMugs(change: (trace: StoredTrace) => StoredTrace): Promise<TraceStore> {
  const store = await openStoreWithMugs();
  await store.putTraces([change(structuredClone((await store.getTrace('mugs'))!))]);
  return store;
}

/** Replays "mugs" in the shop's tab 7 from the viewer, and gives what the replay panel says first. */
async function replayShown(store: TraceStore, page: ShopPage = createShopPage(), toolTimeoutMs?: number): Promise<{ error?: string; result?: string; asked?: string }> {
  viewer = await mountViewer(store, new Map([[7, page]]), undefined, toolTimeoutMs ? { service: { toolTimeoutMs: async () => toolTimeoutMs } } : {});
  await viewer.act(() => viewer!.model.open('mugs'));
  await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
  await viewer.click(viewer.find('replay-start'));
  await viewer.until(() => ['replay-error', 'replay-result', 'replay-confirm'].some((testId) => viewer!.find(testId) !== null), 'how the replay went');
  const [error, result, asked] = ['replay-error', 'replay-result', 'replay-confirm'].map((testId) => viewer!.find(testId)?.textContent ?? undefined);
  return { error, result, asked };
}

describe('how a replay ends', () => {
  it('says there is nothing to replay in a run stopped before the model finished its first reply', async () => {
    const store = await storeWithMugs(({ run, steps }) => ({
      run: { ...run, outcome: 'stopped', answer: undefined, stepCount: 1 },
      steps: [{ ...steps[0]!, complete: false, calls: [] }],
    }));
    expect(await replayShown(store)).toEqual({ error: 'Nothing to replay: the model finished no reply in this run.' });
  });

  it('replays a run from a file whose format names no format ("toString") in the format its prompt shows', async () => {
    const store = await storeWithMugs(({ run, steps }) => ({ run: { ...run, format: 'toString' }, steps }));
    const shown = await replayShown(store);
    expect(shown.error).toBeUndefined();
    // As recorded: the search and the product ran, and add_to_cart waits for a yes.
    expect(shown.asked).toContain('add_to_cart');
  });

  it('says it stopped where a tool did not answer in time, as the run would, and how it went up to there', async () => {
    const shop = createShopPage();
    const hanging: ShopPage = { ...shop, executeTool: (name, args) => (name === 'open_product' ? new Promise(() => {}) : shop.executeTool(name, args)) };
    const shown = await replayShown(await openStoreWithMugs(), hanging, 100);
    expect(shown.result).toMatch(/^Last replay, in https:\/\/shop\.example\/[^ ]* at .+?:The replay stopped where the tool "open_product" did not answer within 0\.1 s, as a live run would\. The replay went differently at step \d: \d+ differences?\./);
  });

  it('says what went wrong when the replay ends on an error, rather than listing the steps it missed as differences', async () => {
    const shop = createShopPage();
    let opened = false;
    const failing: ShopPage = {
      ...shop,
      tools: () => {
        if (opened) throw new Error('The page’s tool list could not be read.');
        return shop.tools();
      },
      executeTool: async (name, args) => ((opened ||= name === 'open_product'), shop.executeTool(name, args)),
    };
    const store = await storeWithMugs((trace) => trace);
    expect(await replayShown(store, failing)).toEqual({ error: 'The replay stopped on an error: The page’s tool list could not be read.' });
  });
});
