// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followActiveTab, type ActiveTabSource } from '@/lib/sidepanel/follow-active-tab';
import { mountPanel, type MountedPanel } from './mount-panel';
import { engineStatus, sessionState, tabId, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  panel?.unmount();
  vi.useRealTimers();
});

describe('messages from the background', () => {
  it('subscribes to its tab on connect, asking its page to look for tools anew', async () => {
    panel = await mountPanel();
    expect(panel.background.port.sent[0]).toEqual({ type: 'subscribe', tabId, lookAgain: true });
  });

  it('ignores invalid messages and counts them', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer', items: [{ kind: 'prose', text: 'Hello' }] })] });
    const before = panel.container.innerHTML;
    for (const message of [null, 'text', { type: 'turn' }, { type: 'prose-delta', tabId, turnId: 'turn-1' }, { type: 'snapshot', state: {} }]) {
      await panel.deliver(message);
    }
    expect(panel.container.innerHTML).toBe(before);
    expect(panel.model.invalidMessages.value).toBe(5);
  });

  it('ignores a snapshot of another tab', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 99, origin: 'https://other.example' }) });
    expect(panel.container.querySelector('.site-origin')?.textContent).toBe('shop.example');
  });

  it('shows an error the background reports', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'error', message: 'The page went away.' });
    expect(panel.find('session-error')?.textContent).toContain('The page went away.');
  });
});

describe('a service-worker restart', () => {
  it('connects and subscribes again without a word when the worker comes back at once (it stops every 30 s idle)', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })] });
    panel.background.port.drop();
    await panel.flush();
    expect(panel.findAll('turn')).toHaveLength(1);
    expect((panel.find('send') as HTMLButtonElement).disabled).toBe(true);

    await vi.advanceTimersByTimeAsync(150);
    expect(panel.background.ports).toHaveLength(2);
    expect(panel.background.port.sent).toEqual([{ type: 'subscribe', tabId }]);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(panel.find('reconnecting')).toBeNull();
  });

  it('says Reconnecting once the background has stayed away for a moment, and stops saying it once back', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })] });
    expect(panel.find('reconnecting')).toBeNull();
    // The region a screen reader listens to is there before anything is said in it.
    const region = panel.container.querySelector('.connection-status[role=status]');
    expect(region?.textContent).toBe('');
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(100);
    expect(panel.find('reconnecting')).toBeNull();
    await vi.advanceTimersByTimeAsync(1_500);
    await panel.flush();
    expect(panel.find('reconnecting')?.textContent).toContain('Reconnecting');
    expect(panel.container.querySelector('.connection-status[role=status]')).toBe(region);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    expect(panel.find('reconnecting')).toBeNull();
  });

  it('puts a request back into the input box when the worker stopped before taking it', async () => {
    panel = await mountPanel();
    panel.model.send('add two mugs to the cart');
    expect(panel.background.port.sent.at(-1)).toEqual({ type: 'send', tabId, text: 'add two mugs to the cart' });
    expect(panel.model.draft.value).toBe('');

    panel.background.port.drop();
    await panel.flush();
    expect(panel.model.draft.value).toBe('add two mugs to the cart');
    expect(panel.model.running.value).toBe(false);
  });

  it('does not put back a request whose turn arrived', async () => {
    panel = await mountPanel();
    panel.model.send('add two mugs to the cart');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ request: 'add two mugs to the cart' }) });
    panel.background.port.drop();
    await panel.flush();
    expect(panel.model.draft.value).toBe('');
  });

  it('keeps trying while the background does not answer', async () => {
    panel = await mountPanel();
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(150);
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(1_600);
    expect(panel.background.ports).toHaveLength(3);
    await panel.flush();
    expect(panel.find('reconnecting')).not.toBeNull();
  });
});

describe('the heartbeat', () => {
  const heartbeats = (mounted: MountedPanel) =>
    mounted.background.port.sent.filter((message) => message.type === 'heartbeat').length;

  it('beats every 10 s while a run goes, and stops when it ends', async () => {
    panel = await mountPanel();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(heartbeats(panel)).toBe(0);

    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    await vi.advanceTimersByTimeAsync(25_000);
    expect(heartbeats(panel)).toBe(2);

    await panel.deliver({ type: 'turn', tabId, turn: turn({ outcome: 'answer' }) });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(heartbeats(panel)).toBe(2);
  });

  it('beats while the model loads', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progress: 0.1 }) });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heartbeats(panel)).toBe(1);
  });
});

describe('following a tab', () => {
  it('asks for the new tab and shows nothing of the old one meanwhile', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })] });
    await panel.flush();
    panel.model.selectTab(8);
    await panel.flush();
    expect(panel.background.port.sent.at(-1)).toEqual({ type: 'subscribe', tabId: 8, lookAgain: true });
    expect(panel.findAll('turn')).toHaveLength(0);

    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 8, origin: 'https://tea.example' }) });
    expect(panel.container.querySelector('.site-origin')?.textContent).toBe('tea.example');
  });

  it("keeps what was typed for each tab with that tab: another tab's site never gets it, and it is there again on the way back", async () => {
    panel = await mountPanel();
    const input = () => panel!.find('chat-input') as HTMLTextAreaElement;
    panel.model.setDraft('place the order for the whole cart');
    panel.model.selectTab(8);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 8, origin: 'https://tea.example' }) });
    expect(input().value).toBe('');
    // Enter in the other tab's empty box sends nothing.
    expect(panel.model.send()).toBe(false);
    panel.model.setDraft('a pot of green tea');

    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    expect(input().value).toBe('place the order for the whole cart');
    panel.model.send();
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([{ type: 'send', tabId, text: 'place the order for the whole cart' }]);

    panel.model.selectTab(8);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 8, origin: 'https://tea.example' }) });
    expect(input().value).toBe('a pot of green tea');
  });

  it('asks the page of a tab turned to during a reconnect to look for its tools, once connected again', async () => {
    panel = await mountPanel();
    panel.background.port.drop();
    await panel.flush();
    panel.model.selectTab(8);
    await vi.advanceTimersByTimeAsync(150);
    expect(panel.background.ports).toHaveLength(2);
    expect(panel.background.port.sent).toEqual([{ type: 'subscribe', tabId: 8, lookAgain: true }]);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 8, origin: 'https://tea.example' }) });
    expect(panel.container.querySelector('.site-origin')?.textContent).toBe('tea.example');
  });

  it('puts a request the worker never took back into its own tab\'s box, not into the next tab\'s', async () => {
    panel = await mountPanel();
    panel.model.send('add two mugs to the cart');
    panel.background.port.drop();
    await panel.flush();
    panel.model.selectTab(8);
    await vi.advanceTimersByTimeAsync(150);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: 8, origin: 'https://tea.example' }) });
    expect(panel.model.draft.value).toBe('');
    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    expect(panel.model.draft.value).toBe('add two mugs to the cart');
  });
});

describe('an idle panel when the worker stops', () => {
  it('lets its port go and the worker sleep, says nothing, and connects again when the person sends', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })], engine: engineStatus({ state: 'ready', tokensPerSecond: 31.5 }) }, { restsWhenIdle: true });
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(10_000);
    await panel.flush();
    expect(panel.background.ports).toHaveLength(1);
    expect(panel.find('reconnecting')).toBeNull();
    expect(panel.model.canSend.value).toBe(true);
    // The stopped worker took the model with it.
    expect(panel.model.session.value?.engine).toMatchObject({ state: 'idle', tokensPerSecond: undefined });

    expect(panel.model.send('add a cap too')).toBe(true);
    expect(panel.background.ports).toHaveLength(2);
    expect(panel.background.port.sent).toEqual([
      { type: 'subscribe', tabId },
      { type: 'send', tabId, text: 'add a cap too' },
    ]);
  });

  it('connects again when the background says its tab changed, not for another tab', async () => {
    panel = await mountPanel({ toolCount: 3 }, { restsWhenIdle: true });
    panel.background.port.drop();
    await panel.wake(tabId + 1);
    expect(panel.background.ports).toHaveLength(1);
    await panel.wake(tabId);
    expect(panel.background.ports).toHaveLength(2);
    expect(panel.background.port.sent).toEqual([{ type: 'subscribe', tabId }]);
    await panel.deliver({ type: 'snapshot', state: sessionState({ toolCount: 5 }) });
    expect(panel.model.session.value?.toolCount).toBe(5);
    // Following another tab connects too, and subscribes once.
    panel.background.port.drop();
    panel.model.selectTab(tabId + 1);
    expect(panel.background.ports).toHaveLength(3);
    expect(panel.background.port.sent).toEqual([{ type: 'subscribe', tabId: tabId + 1, lookAgain: true }]);
  });

  it('stays resting while its page rewrites its own address, and follows the tab the person turns to', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })] }, { restsWhenIdle: true });
    type Updated = Parameters<ActiveTabSource['tabs']['onUpdated']['addListener']>[0];
    const updated = new Set<Updated>();
    const source: ActiveTabSource = {
      tabs: {
        query: async () => [{ id: tabId }],
        onActivated: { addListener() {}, removeListener() {} },
        onUpdated: { addListener: (listener) => void updated.add(listener), removeListener: (listener) => void updated.delete(listener) },
        onReplaced: { addListener() {}, removeListener() {} },
      },
      windows: { getCurrent: async () => ({ id: 1 }) },
    };
    const stop = followActiveTab({ turned: panel.model.selectTab, replaced: panel.model.tabReplaced }, source);
    await vi.advanceTimersByTimeAsync(0);
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(30_000);
    const update = (updatedTabId: number, change: { status?: string }) => updated.forEach((listener) => listener(updatedTabId, change, { windowId: 1, active: true }));
    // history.replaceState as the person scrolls: Chrome says "loading", then "complete", each time, and no address.
    for (let page = 2; page <= 10; page += 1) {
      update(tabId, { status: 'loading' });
      update(tabId, { status: 'complete' });
    }
    await panel.flush();
    expect(panel.background.ports).toHaveLength(1);
    // Another tab found active as its page loads is followed.
    update(8, { status: 'complete' });
    expect(panel.background.ports).toHaveLength(2);
    expect(panel.background.port.sent).toEqual([{ type: 'subscribe', tabId: 8, lookAgain: true }]);
    stop();
  });

  it('stays connected while a run goes on, and reconnects at once when the worker stops under it', async () => {
    panel = await mountPanel({ turns: [turn()], running: true }, { restsWhenIdle: true });
    panel.background.port.drop();
    await vi.advanceTimersByTimeAsync(150);
    expect(panel.background.ports).toHaveLength(2);
  });
});
