// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { followRunInAddress } from '@/lib/traces/run-address';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import { recordShopRun } from './support/record-run';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { createShopPage } from './support/shop-page';
import { createTestService } from './support/test-service';
import { openTestStore } from './support/trace-stores';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  viewer = undefined;
  fakeBrowser.reset();
});

/** The shop run on each site named, an hour ago, each under the site's host as its id. */
async function storeWithRunsOn(origins: string[]): Promise<TraceStore> {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  for (const [index, origin] of origins.entries()) {
    const page = { ...createShopPage(), origin, url: `${origin}/` };
    await recordShopRun({ recorder, runId: new URL(origin).host, page, startedAt: Date.now() - 3_600_000 + index * 60_000 });
  }
  await recorder.flush();
  return store;
}

const runIds = (mounted: MountedViewer) => mounted.findAll('run-item').map((item) => item.dataset.runId);

describe('the viewer after runs are removed', () => {
  it('goes back to all sites once the site it filtered on has no run left, listing the runs of the others', async () => {
    viewer = await mountViewer(await storeWithRunsOn(['https://shop.example', 'https://clinic.example']));
    await viewer.act(() => (viewer!.model.site.value = 'https://clinic.example'));
    await viewer.click(viewer.find('delete-all'));
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent === 'Deleted 1 run.', 'the deletion');
    // The list is read again after the notice: the filter goes back once it has come.
    const filter = () => viewer!.find('site-filter') as HTMLSelectElement;
    await viewer.until(() => filter().selectedOptions[0]?.textContent === 'All sites', 'the filter back on all sites');
    expect(runIds(viewer)).toEqual(['shop.example']);
    expect(viewer.find('run-count')?.textContent).toBe('1 run');
  });

  it('says a run removed meanwhile is no longer stored when it is exported, downloads no empty file, and shows it as gone', async () => {
    const store = await storeWithRunsOn(['https://shop.example']);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('shop.example'));
    // Deleted from another viewer tab, or removed by retention when another run ended.
    await store.deleteFinished(['shop.example']);
    await viewer.click(viewer.find('export-run'));
    await viewer.until(() => viewer!.find('notice-text') !== null, 'a notice');
    expect(viewer.find('notice')?.dataset.tone).toBe('error');
    expect(viewer.find('notice-text')?.textContent).toBe('This run is no longer stored: nothing was exported.');
    expect(viewer.downloads).toEqual([]);
    await viewer.until(() => viewer!.find('run-missing') !== null, 'the run as gone');
  });

  it('shows the open run as gone once the list, read again as the window comes back, no longer has it', async () => {
    const store = await storeWithRunsOn(['https://shop.example', 'https://clinic.example']);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('shop.example'));
    expect(viewer.find('export-run')).not.toBeNull();
    // Deleted from another viewer tab, or removed by retention when another run ended.
    await store.deleteFinished(['shop.example']);
    await viewer.act(() => viewer!.model.load());
    await viewer.until(() => viewer!.find('run-missing') !== null, 'the run as gone');
    expect(viewer.find('export-run')).toBeNull();
    expect(runIds(viewer)).toEqual(['clinic.example']);
  });

  it('says a run another viewer deleted first was no longer stored, not "Deleted 0 runs", and shows it as gone', async () => {
    const store = await storeWithRunsOn(['https://shop.example']);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('shop.example'));
    await store.deleteFinished(['shop.example']);
    await viewer.act(() => viewer!.model.deleteRuns(['shop.example']));
    expect(viewer.find('notice-text')?.textContent).toBe('This run was no longer stored: nothing was deleted.');
    await viewer.until(() => viewer!.find('run-missing') !== null, 'the run as gone');
  });

  it('tells a run that could not be read from one that is gone, keeps it in the address, and reads it again on request', async () => {
    const store = await storeWithRunsOn(['https://shop.example']);
    let failing = true;
    // The database refusing a read for a moment (another version of the extension upgrading it, say).
    const flaky: TraceStore = { ...store, getTrace: (runId, fromStep) => (failing ? Promise.reject(new Error('The trace database is busy.')) : store.getTrace(runId, fromStep)) };
    viewer = await mountViewer(flaky);
    const bar = { location: { href: 'chrome-extension://id/traces.html' }, history: { replaceState: (_data: unknown, _unused: string, url: URL) => void (bar.location.href = url.href) } };
    const stop = followRunInAddress(viewer.model, bar);
    await viewer.act(() => viewer!.model.open('shop.example'));
    expect(viewer.find('run-missing')).toBeNull();
    expect(viewer.find('run-unread')?.textContent).toContain('This run could not be read: The trace database is busy.');
    expect(bar.location.href).toBe('chrome-extension://id/traces.html?run=shop.example');
    failing = false;
    await viewer.click(viewer.find('read-run-again'));
    await viewer.until(() => viewer!.find('run-detail') !== null, 'the run');
    expect(viewer.find('run-unread')).toBeNull();
    expect(bar.location.href).toBe('chrome-extension://id/traces.html?run=shop.example');
    stop();
  });

  it('reads a run that could not be read again when the window comes back', async () => {
    const store = await storeWithRunsOn(['https://shop.example']);
    let failing = true;
    const flaky: TraceStore = { ...store, getTrace: (runId, fromStep) => (failing ? Promise.reject(new Error('The trace database is busy.')) : store.getTrace(runId, fromStep)) };
    viewer = await mountViewer(flaky);
    await viewer.act(() => viewer!.model.open('shop.example'));
    expect(viewer.find('run-unread')).not.toBeNull();
    failing = false;
    await viewer.act(() => viewer!.model.load());
    await viewer.until(() => viewer!.find('run-detail') !== null, 'the run');
  });

  it('keeps up, unfocused, with runs that start, end or go elsewhere', async () => {
    const store = await storeWithRunsOn(['https://shop.example']);
    viewer = await mountViewer(store);
    const stop = viewer.model.watchRuns();
    await viewer.act(() => viewer!.model.open('shop.example'));
    // The background records a run; no focus comes to this window.
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'clinic.example', page: { ...createShopPage(), origin: 'https://clinic.example', url: 'https://clinic.example/' } });
    await viewer.until(() => runIds(viewer!).length === 2, 'the new run listed');
    // Another viewer deletes the open run.
    const { service } = createTestService(store);
    await service.handle({ type: 'traces-delete', runIds: ['shop.example'] });
    await viewer.until(() => viewer!.find('run-missing') !== null, 'the run as gone');
    expect(runIds(viewer)).toEqual(['clinic.example']);
    stop();
  });

  it('answers a reading of the list asked for while one goes on with a reading that begins after it, one for all such', async () => {
    const store = await storeWithRunsOn(['https://shop.example', 'https://clinic.example']);
    let reads = 0;
    let held: (() => void) | undefined;
    const counted: TraceStore = {
      ...store,
      listRuns: async () => {
        reads += 1;
        const runs = await store.listRuns();
        if (reads === 2) await new Promise<void>((resolve) => (held = resolve));
        return runs;
      },
    };
    viewer = await mountViewer(counted);
    // A reading that began before a deletion elsewhere, and ends after it.
    const first = viewer.model.load();
    await vi.waitFor(() => expect(held).toBeDefined());
    await store.deleteFinished(['shop.example']);
    const asked = [viewer.model.load(), viewer.model.load()];
    held!();
    await viewer.act(() => Promise.all([first, ...asked]));
    expect(reads).toBe(3);
    expect(runIds(viewer)).toEqual(['clinic.example']);
  });
});
