// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createTabDrivers } from '@/lib/service-worker/tab-drivers';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { createShopPage, type ShopPage } from './support/shop-page';
import { openStoreWithMugs } from './support/trace-stores';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  viewer = undefined;
  fakeBrowser.reset();
});

/** A shop page on another site, noting every tool run there. */
function otherSite(ran: string[]): ShopPage {
  const other = createShopPage();
  return { ...other, url: 'https://other.example/', origin: 'https://other.example', executeTool: async (name, args) => (ran.push(name), other.executeTool(name, args)) };
}

describe('replay: the tab it runs in', () => {
  it('refuses to replay when the chosen tab went to another site after the list was read, and runs nothing there', async () => {
    const pages = new Map<number, ShopPage>([[7, createShopPage()]]);
    viewer = await mountViewer(await openStoreWithMugs(), pages);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    expect((viewer.find('replay-tab') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe("https://shop.example/ · 2 tools · the run's own tab");

    const ran: string[] = [];
    pages.set(7, otherSite(ran));
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => ['replay-error', 'replay-result', 'replay-confirm'].some((testId) => viewer!.find(testId) !== null), 'how the replay went');
    expect(viewer.find('replay-error')?.textContent).toBe(
      'The tab you chose now shows https://other.example, not https://shop.example as the list said, so nothing was replayed. Refresh the tabs and choose again.',
    );
    expect(ran).toEqual([]);
  });

  it('names a tab by its address without the query string and fragment, as traces keep addresses', async () => {
    const withToken = { ...createShopPage(), url: 'https://shop.example/cart?session=s3cr3t#step-2' };
    viewer = await mountViewer(await openStoreWithMugs(), new Map([[7, withToken]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    expect((viewer.find('replay-tab') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe("https://shop.example/cart · 2 tools · the run's own tab");
  });

  it('reads the tabs again once a replay ends, so the list names what the replay left the tab showing', async () => {
    viewer = await mountViewer(await openStoreWithMugs(), new Map([[7, createShopPage()]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    // The tab's option, as the list names it (happy-dom loses a select's choice when an option's text changes; Chrome does not).
    const picked = () => viewer!.find('replay-tab')?.querySelector('option[value="7"]')?.textContent;
    expect(picked()).toBe("https://shop.example/ · 2 tools · the run's own tab");
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the question before add_to_cart');
    await viewer.click(viewer.find('replay-allow'));
    await viewer.until(() => viewer!.find('replay-result') !== null, 'the replay’s end');
    // The replay opened a product: add_to_cart is there now.
    await viewer.until(() => picked() === "https://shop.example/ · 3 tools · the run's own tab", 'the tab as it is now');
    expect(viewer.model.replayTabId.value).toBe(7);
  }, 25_000);

  it('takes Escape on the replay\'s question as its safe answer, Skip it, as the viewer\'s other questions do', async () => {
    viewer = await mountViewer(await openStoreWithMugs(), new Map([[7, createShopPage()]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the question before add_to_cart');
    // A held key's repeat answers nothing; the press does.
    await viewer.act(() => viewer!.find('replay-confirm')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, repeat: true })));
    expect(viewer.find('replay-confirm')).not.toBeNull();
    await viewer.act(() => viewer!.find('replay-confirm')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    await viewer.until(() => viewer!.find('replay-result') !== null, 'the replay’s end');
    expect(viewer.find('replay-result')?.textContent).toContain('add_to_cart ran in the recording, and now was declined.');
  }, 25_000);

  it('cancels the replay of the open run when the run is deleted, says so, and gives its tab back', async () => {
    const tabDrivers = createTabDrivers();
    viewer = await mountViewer(await openStoreWithMugs(), new Map([[7, createShopPage()]]), undefined, { service: { tabDrivers } });
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the question before add_to_cart');

    await viewer.click(viewer.find('delete-run'));
    await viewer.click(viewer.find('confirm-delete-run'));
    await viewer.until(() => viewer!.find('run-missing') !== null, 'that the run is gone');
    expect(viewer.find('notice-text')?.textContent).toBe('Deleted 1 run. Its replay was cancelled.');
    expect(viewer.model.replay.value.status).toBe('idle');
    // The side panel may run the agent in that tab again.
    await vi.waitFor(() => {
      const claim = tabDrivers.take(7, 'agent');
      expect(claim).not.toHaveProperty('busy');
      if ('release' in claim) claim.release();
    });
  });

  it('cancels the replay of the open run when another viewer deletes the run, once the list is read again, and gives its tab back', async () => {
    const tabDrivers = createTabDrivers();
    const store = await openStoreWithMugs();
    viewer = await mountViewer(store, new Map([[7, createShopPage()]]), undefined, { service: { tabDrivers } });
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the question before add_to_cart');

    await store.deleteFinished(['mugs']);
    await viewer.act(() => viewer!.model.load());
    await viewer.until(() => viewer!.find('run-missing') !== null, 'that the run is gone');
    expect(viewer.model.replay.value.status).toBe('idle');
    await vi.waitFor(() => {
      const claim = tabDrivers.take(7, 'agent');
      expect(claim).not.toHaveProperty('busy');
      if ('release' in claim) claim.release();
    });
  });

  it('stops a replay whose tab is closed midway, saying so, rather than reporting the page’s tools as removed', async () => {
    const shop = createShopPage();
    const pages = new Map<number, ShopPage>();
    // The person closes the tab once the search has run.
    pages.set(7, { ...shop, executeTool: async (name, args) => (name === 'search_products' && pages.delete(7), shop.executeTool(name, args)) });
    viewer = await mountViewer(await openStoreWithMugs(), pages);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab picker');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => ['replay-error', 'replay-result', 'replay-confirm'].some((testId) => viewer!.find(testId) !== null), 'how the replay went');
    expect(viewer.find('replay-error')?.textContent).toBe('The tab was closed, so the replay stopped.');

    // The person opens the page in another tab and refreshes the list: the closed tab's words go.
    pages.set(8, createShopPage());
    await viewer.click(viewer.find('replay-refresh'));
    await viewer.until(() => viewer!.find('replay-error') === null, 'the failure gone');
    expect(viewer.model.replayTabId.value).toBe(8);
    expect((viewer.find('replay-start') as HTMLButtonElement).disabled).toBe(false);
  });
});
