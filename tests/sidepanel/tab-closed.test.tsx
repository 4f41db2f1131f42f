// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'preact/test-utils';
import { watchFixedTab, type FixedTabSource } from '@/lib/sidepanel/watch-fixed-tab';
import { mountPanel, type MountedPanel } from './mount-panel';
import { fakeBrowserEvent } from './fake-browser-event';
import { engineStatus, sessionState, tabId, toolCard, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

/** A reply streaming in the tab, and the background's last word as the tab closed: the turn stopped, the engine still generating. */
const streaming = { running: true, suggestions: ['Find mugs'], engine: engineStatus({ state: 'generating' as const, tokensPerSecond: 12 }), turns: [turn()] };
const lastWord = sessionState({
  ...streaming,
  running: false,
  turns: [turn({ outcome: 'stopped', notice: 'Stopped: the tab was closed.', items: [{ kind: 'prose', text: 'A long story' }] })],
});

describe('a panel fixed to a tab that closes', () => {
  it('leaves "Generating" for "Tab closed", keeps the chat as it ended, and offers nothing to send', async () => {
    panel = await mountPanel(streaming);
    expect(panel.find('status-line')?.textContent).toContain('12.0 tokens/s');
    await panel.deliver({ type: 'snapshot', state: lastWord });
    await act(() => panel!.model.tabWasClosed(tabId));

    const status = panel.find('status-line')?.textContent ?? '';
    expect(status).toContain('Tab closed');
    expect(status).not.toMatch(/Generating|tokens\/s/);
    expect(panel.container.querySelector('.site-detail')?.textContent).toBe('Tab closed');
    expect(panel.find('turn')?.textContent).toContain('Stopped: the tab was closed.');
    expect(panel.find('turn')?.textContent).toContain('A long story');
    expect(panel.find('tab-closed-note')?.textContent).toBe(
      'The tab this page was opened for is closed, so nothing more can be asked here. Its chat stays in view until you close this page.',
    );

    const input = panel.find('chat-input') as HTMLTextAreaElement;
    expect(input.placeholder).toBe('This tab is closed');
    expect(input.readOnly).toBe(true);
    await act(() => panel!.model.setDraft('one more thing'));
    expect((panel.find('send') as HTMLButtonElement).disabled).toBe(true);
    expect(panel.find('stop')).toBeNull();
    expect(panel.findAll('suggestion')).toHaveLength(0);
    expect(panel.find('agent-off-here')).toBeNull();
    expect((panel.find('new-chat') as HTMLButtonElement).disabled).toBe(true);
    expect(panel.model.running.value).toBe(false);
  });

  it('says so at once, though the snapshot of the run stopped by the closing is still on its way', async () => {
    panel = await mountPanel(streaming);
    await act(() => panel!.model.tabWasClosed(tabId));
    expect(panel.find('status-line')?.textContent).toContain('Tab closed');
    expect(panel.find('stop')).toBeNull();
    // It comes a moment later, and is shown.
    await panel.deliver({ type: 'snapshot', state: lastWord });
    expect(panel.find('turn')?.textContent).toContain('Stopped: the tab was closed.');
    expect(panel.find('status-line')?.textContent).toContain('Tab closed');
  });

  it('says "Tab closed", not "Waiting for the agent…", where the tab was gone before the agent answered (a panel opened on an old id)', async () => {
    panel = await mountPanel({}, { unanswered: true });
    expect(panel.find('status-line')?.textContent).toBe('Waiting for the agent…');
    await act(() => panel!.model.tabWasClosed(tabId));
    expect(panel.find('status-line')?.textContent).toBe('Tab closed');
    expect(panel.find('tab-closed-note')).not.toBeNull();
  });

  it('does not subscribe to the closed tab again when its port opens anew, which would show an empty chat', async () => {
    panel = await mountPanel(streaming, { restsWhenIdle: true });
    await panel.deliver({ type: 'snapshot', state: lastWord });
    await act(() => panel!.model.tabWasClosed(tabId));
    const ports = panel.background.ports.length;
    // The worker stops, and the background's word of a settings change wakes every panel.
    await act(() => panel!.background.port.drop());
    await panel.wake();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(panel.background.ports.length).toBeGreaterThan(ports);
    const subscribes = panel.background.ports.slice(ports).flatMap((port) => port.sent).filter((message) => message.type === 'subscribe');
    expect(subscribes).toEqual([]);
    expect(panel.find('turn')?.textContent).toContain('A long story');
  });

  it('offers no Undo of a New chat, nor says why the engine failed, and sends nothing for the closed tab', async () => {
    panel = await mountPanel({ canUndoNewChat: true, engine: engineStatus({ state: 'error', errorDuring: 'load', error: 'Out of memory.' }) });
    expect(panel.find('undo-new-chat')).not.toBeNull();
    expect(panel.find('engine-error')).not.toBeNull();
    await act(() => panel!.model.tabWasClosed(tabId));
    expect(panel.find('undo-new-chat')).toBeNull();
    expect(panel.find('engine-error')).toBeNull();
    const before = panel.posted().length;
    await act(() => {
      panel!.model.undoNewChat();
      panel!.model.newChat();
      panel!.model.stop();
    });
    expect(panel.posted().slice(before)).toEqual([]);
  });

  it('is not told of another tab, nor of one it left: a tab it turns to is open', async () => {
    panel = await mountPanel(streaming);
    await act(() => panel!.model.tabWasClosed(tabId + 1));
    expect(panel.find('status-line')?.textContent).not.toContain('Tab closed');
    await act(() => panel!.model.tabWasClosed(tabId));
    await act(() => panel!.model.selectTab(tabId + 2));
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 2 }) });
    expect(panel.find('status-line')?.textContent).toContain('Ready');
    expect(panel.find('tab-closed-note')).toBeNull();
    expect((panel.find('chat-input') as HTMLTextAreaElement).placeholder).toBe('Ask this page to do something…');
    expect((panel.find('chat-input') as HTMLTextAreaElement).readOnly).toBe(false);
  });

  it('keeps what was typed and the chat when Chrome gives the tab a new id, and then speaks of the new id', async () => {
    // (The background stops a run as its tab is replaced: the card waiting here only shows which id an answer names.)
    const asked = turn({ items: [toolCard({ state: 'waiting', approvalReason: 'not-read-only' })] });
    panel = await mountPanel({ running: true, turns: [asked] });
    await act(() => panel!.model.setDraft('and a teapot'));
    await act(() => panel!.model.tabReplaced(tabId + 1, tabId + 2));
    expect(panel.model.tabId.value).toBe(tabId);
    await act(() => panel!.model.tabReplaced(tabId, tabId + 2));
    expect(panel.model.tabId.value).toBe(tabId + 2);
    expect(panel.model.draft.value).toBe('and a teapot');
    expect(panel.find('turn')).not.toBeNull();
    expect(panel.posted().at(-1)).toEqual({ type: 'subscribe', tabId: tabId + 2 });
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 2, running: true, turns: [asked] }) });
    panel.find('approve-once')!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toMatchObject({ type: 'approve', tabId: tabId + 2, callId: 'call-1' });
  });

  it('goes on naming the page of a tab Chrome put to sleep, whose address it can no longer read', async () => {
    panel = await mountPanel({ url: 'https://shop.example/mugs', origin: 'https://shop.example', toolCount: 3 });
    await act(() => panel!.model.tabReplaced(tabId, tabId + 2));
    // The background reads no address of an unloaded page.
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 2, url: '', origin: '', toolCount: 0, pageReachable: false, pageAsleep: true }) });
    expect(panel.find('page-unreachable')?.textContent).toContain('This tab is asleep');
    // By its site, as it was named awake, not by its whole address.
    expect(panel.container.querySelector('.site-origin')?.textContent).toBe('shop.example');
    expect(panel.container.querySelector('.site-detail')?.textContent).toBe('Tab asleep');
    // Woken, the page names itself again.
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 2, url: 'https://shop.example/mugs', origin: 'https://shop.example' }) });
    expect(panel.find('page-unreachable')).toBeNull();
    expect(panel.container.querySelector('.site-origin')?.textContent).toBe('shop.example');
  });

  it('says the tab is closed without a chat where the page opens after the tab went, and nothing of a private window', async () => {
    // The background cannot read a closed tab's window, and takes it for a private one.
    panel = await mountPanel({ privateWindow: true });
    await act(() => panel!.model.tabWasClosed(tabId));
    expect(panel.find('tab-closed-note')?.textContent).toBe('The tab this page was opened for is closed, so nothing more can be asked here.');
    expect(panel.container.textContent).not.toContain('Ask this page');
    expect(panel.find('private-window')).toBeNull();
  });
});

function fakeTabs(openTabs: number[]) {
  const onRemoved = fakeBrowserEvent<(tabId: number) => void>();
  const onReplaced = fakeBrowserEvent<(addedTabId: number, removedTabId: number) => void>();
  const source: FixedTabSource = {
    tabs: {
      get: async (id) => {
        if (!openTabs.includes(id)) throw new Error(`No tab with id: ${id}.`);
        return { id };
      },
      onRemoved,
      onReplaced,
    },
  };
  return { source, onRemoved, onReplaced };
}

describe('watchFixedTab', () => {
  it('follows its tab to a new id, and says when that tab closes', async () => {
    const tabs = fakeTabs([5]);
    const seen: string[] = [];
    const stop = watchFixedTab(5, { replaced: (from, to) => seen.push(`replaced ${from} by ${to}`), closed: (id) => seen.push(`closed ${id}`) }, tabs.source);
    await Promise.resolve();
    tabs.onRemoved.fire(6);
    tabs.onReplaced.fire(9, 8);
    tabs.onReplaced.fire(12, 5);
    // The old id going is no news: it is the new id's closing that counts.
    tabs.onRemoved.fire(5);
    tabs.onRemoved.fire(12);
    expect(seen).toEqual(['replaced 5 by 12', 'closed 12']);
    stop();
    expect(tabs.onRemoved.registered.size + tabs.onReplaced.registered.size).toBe(0);
  });

  it('says the tab is closed where it is gone already as the page opens', async () => {
    const tabs = fakeTabs([]);
    const closed: number[] = [];
    watchFixedTab(5, { replaced: () => {}, closed: (id) => closed.push(id) }, tabs.source);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toEqual([5]);
  });
});
