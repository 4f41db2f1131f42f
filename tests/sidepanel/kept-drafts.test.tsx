// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDraftStorage, storedDraftsOfTabs } from '@/lib/agent/stored-drafts';
import { createFakeDraftArea } from '../agent/fake-draft-area';
import { mountPanel, type MountedPanel } from './mount-panel';
import { sessionState, tabId } from './session-fixtures';

const mounted: MountedPanel[] = [];
afterEach(() => mounted.splice(0).forEach((panel) => panel.unmount()));

const otherTab = { tabId: 8, origin: 'https://tea.example', url: 'https://tea.example/' };
const input = (panel: MountedPanel) => panel.find('chat-input') as HTMLTextAreaElement;

/** One session storage for the panels a test opens one after another, as Chrome keeps it while the browser runs. */
function sessionStorage() {
  const fake = createFakeDraftArea();
  const drafts = createDraftStorage(fake.area);
  return {
    ...fake,
    drafts,
    /** The panel is closed, once what it wrote went out; another is opened on `tabId`. */
    async reopen(panel: MountedPanel) {
      await drafts.settled();
      panel.unmount();
      const again = await mountPanel({}, { draftStorage: drafts });
      mounted.push(again);
      await again.flush();
      return again;
    },
    async open() {
      const panel = await mountPanel({}, { draftStorage: drafts });
      mounted.push(panel);
      return panel;
    },
  };
}

describe('what was typed and not sent, when the panel is closed', () => {
  it('is in the box again when the panel is opened again on that tab', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('add two mugs and a teapot');
    const again = await storage.reopen(panel);
    expect(input(again).value).toBe('add two mugs and a teapot');
  });

  it('is gone once sent', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('add two mugs');
    await storage.drafts.settled();
    panel.model.send();
    const again = await storage.reopen(panel);
    expect(input(again).value).toBe('');
  });

  it("stays with its tab: the panel closed on another tab finds it on the way back, and the other tab's box empty", async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('place the order');
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    const again = await storage.reopen(panel);
    expect(input(again).value).toBe('place the order');
    again.model.selectTab(otherTab.tabId);
    await again.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    await again.flush();
    expect(input(again).value).toBe('');
  });

  it('keeps a request refused after the panel left its tab, in front of what was typed there', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('add two mugs');
    panel.model.send();
    panel.model.setDraft('and a teapot');
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'error', tabId, message: 'A replay from the trace viewer is running in this tab.' });
    const again = await storage.reopen(panel);
    expect(input(again).value).toBe('add two mugs\nand a teapot');
  });

  it("never puts a tab's kept draft into another tab's box, when the panel turned there before it was read", async () => {
    const storage = sessionStorage();
    storage.items.set(`panelDraft:${tabId}`, 'add two mugs');
    storage.holdReads();
    const panel = await storage.open();
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    storage.releaseReads();
    // The reads come back while the panel is on the other tab.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await panel.flush();
    await storage.drafts.settled();
    expect(panel.model.tabId.value).toBe(otherTab.tabId);
    expect(input(panel).value).toBe('');
    expect(storage.items.get(`panelDraft:${otherTab.tabId}`)).toBeUndefined();
    // Back on its own tab, it is read again.
    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    await vi.waitFor(() => expect(input(panel).value).toBe('add two mugs'));
  });

  it('does not write over what the person typed before it was read, nor is removed before it is read', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('add two mugs');
    await storage.drafts.settled();
    panel.unmount();

    // A slow read: the box starts empty, which must not remove the kept draft.
    storage.holdReads();
    const slow = await storage.open();
    await storage.drafts.settled();
    expect(storage.items.get(`panelDraft:${tabId}`)).toBe('add two mugs');
    slow.model.setDraft('a teapot');
    storage.releaseReads();
    await slow.flush();
    expect(input(slow).value).toBe('a teapot');
    const again = await storage.reopen(slow);
    expect(input(again).value).toBe('a teapot');
  });
});

describe('a tab the panel left, which Chrome gives a new id meanwhile (a tab discarded to save memory)', () => {
  /** Chrome discards the tab: the background moves its stored draft, the panel hears of the new id; then the person goes back to it. */
  async function discardAndGoBack(storage: ReturnType<typeof sessionStorage>, panel: MountedPanel, newId: number) {
    await storage.drafts.settled();
    await storedDraftsOfTabs(storage.area).tabReplaced(tabId, newId);
    panel.model.tabReplaced(tabId, newId);
    panel.model.selectTab(newId);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: newId }) });
    await panel.flush();
  }

  it('has what was typed there in the box on the way back', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('place the order');
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    await discardAndGoBack(storage, panel, 31);
    await vi.waitFor(() => expect(input(panel).value).toBe('place the order'));
  });

  it('has a request refused there after the panel left in the box, with its refusal, on the way back', async () => {
    const storage = sessionStorage();
    const panel = await storage.open();
    panel.model.setDraft('add two mugs');
    panel.model.send();
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'error', tabId, message: 'A replay from the trace viewer is running in this tab.' });
    await discardAndGoBack(storage, panel, 31);
    await vi.waitFor(() => expect(input(panel).value).toBe('add two mugs'));
    expect(panel.find('session-error')?.textContent).toContain('A replay from the trace viewer is running in this tab.');
  });

  it('puts a request sent there back in its box when the connection drops, under the new id', async () => {
    const panel = await mountPanel();
    mounted.push(panel);
    panel.model.setDraft('add two mugs');
    panel.model.send();
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    // Discarded before its answer came; then the worker goes away.
    panel.model.tabReplaced(tabId, 31);
    panel.background.port.drop();
    await panel.flush();
    panel.model.selectTab(31);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 31 }) });
    expect(input(panel).value).toBe('add two mugs');
  });

  it('keeps what was typed where nothing is stored (a Chrome without the storage the drafts need)', async () => {
    const panel = await mountPanel();
    mounted.push(panel);
    panel.model.setDraft('place the order');
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
    panel.model.tabReplaced(tabId, 31);
    panel.model.selectTab(31);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 31 }) });
    expect(input(panel).value).toBe('place the order');
  });
});
