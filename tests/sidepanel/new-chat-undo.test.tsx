// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountPanel, type MountedPanel } from './mount-panel';
import { sessionState, tabId, toolCard, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

const earlier = [
  turn({
    id: 'turn-1',
    request: 'add two mugs to the cart',
    items: [
      { kind: 'prose', text: 'Adding two.' },
      toolCard({ state: 'done', result: 'Added.' }),
      { kind: 'prose', text: 'Two mugs are in your cart.' },
    ],
    outcome: 'answer',
    endedAt: 2_000,
  }),
];

/** The panel after New chat: the background cleared the conversation and offers to bring it back. */
async function afterNewChat(): Promise<MountedPanel> {
  const mounted = await mountPanel({ turns: earlier });
  mounted.find('new-chat')?.click();
  await mounted.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
  return mounted;
}

/** What the live region says: a screen reader reads out each change of it. */
const note = (mounted: MountedPanel) => mounted.find('new-chat-status')?.textContent ?? '';
/** The offer a panel finds, where nobody pressed New chat just now. */
const quietOffer = (mounted: MountedPanel) => mounted.find('earlier-chat-note');
const inLiveRegion = (element: Element) => element.closest('[role=status], [role=alert], [role=log], [aria-live]') !== null;
const undoButton = (mounted: MountedPanel) => mounted.find('undo-new-chat') as HTMLButtonElement | null;
const undoes = (mounted: MountedPanel) => mounted.posted().filter((message) => message.type === 'undo-new-chat');

describe('Undo after New chat', () => {
  it('says the chat started anew, in a polite region that was there before, with Undo', async () => {
    panel = await mountPanel({ turns: earlier });
    const region = panel.find('new-chat-status');
    expect(region?.getAttribute('role')).toBe('status');
    expect(region?.textContent).toBe('');
    panel.find('new-chat')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'new-chat', tabId });
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    // The same region, its words changed: a screen reader reads them out.
    expect(panel.find('new-chat-status')).toBe(region);
    expect(note(panel)).toBe('Started a new chat.Undo');
    expect(undoButton(panel)?.textContent).toBe('Undo');
    expect(quietOffer(panel)).toBeNull();
    expect(panel.findAll('turn')).toEqual([]);
  });

  it('waits for the snapshot that answers New chat: one sent before it, with the chat still there, says nothing yet', async () => {
    panel = await mountPanel({ turns: earlier });
    panel.find('new-chat')?.click();
    // The page's tools changed as the background was about to clear the chat.
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: earlier, toolCount: 4 }) });
    expect(note(panel)).toBe('');
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(note(panel)).toBe('Started a new chat.Undo');
    expect(quietOffer(panel)).toBeNull();
  });

  it('offers the earlier chat quietly to a panel opened later on the tab, and brings it back from there', async () => {
    panel = await mountPanel({ turns: [], canUndoNewChat: true });
    // Nobody pressed New chat here: nothing is read out, and the offer says what it is.
    expect(note(panel)).toBe('');
    const offer = quietOffer(panel)!;
    expect(inLiveRegion(offer)).toBe(false);
    expect(offer.textContent).toBe('The earlier chat can be brought back.Bring it back');
    const button = undoButton(panel)!;
    expect(button.textContent).toBe('Bring it back');
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe('The earlier chat can be brought back.');
    button.click();
    expect(undoes(panel)).toEqual([{ type: 'undo-new-chat', tabId }]);
    await panel.flush();
    expect(quietOffer(panel)).toBeNull();
    expect(document.activeElement).toBe(panel.find('chat-input'));
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: earlier }) });
    expect(panel.find('turn')?.textContent).toContain('Two mugs are in your cart.');
    // What this panel's press did is heard.
    expect(note(panel)).toBe('The earlier chat is back.');
  });

  it('offers it quietly in a second panel on the tab, where nobody pressed New chat', async () => {
    panel = await mountPanel({ turns: earlier });
    // Another panel's New chat: this one follows the tab's snapshot.
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(note(panel)).toBe('');
    expect(inLiveRegion(quietOffer(panel)!)).toBe(false);
    expect(panel.find('new-chat-note')).toBeNull();
  });

  it('says a later New chat quietly where another panel undid this one, and that one started it', async () => {
    panel = await afterNewChat();
    // The other panel's Undo, then its New chat.
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: earlier }) });
    expect(note(panel)).toBe('');
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(note(panel)).toBe('');
    expect(quietOffer(panel)).not.toBeNull();
  });

  it('brings the conversation back with its tool card and prose, once, and says so to a screen reader', async () => {
    panel = await afterNewChat();
    undoButton(panel)?.click();
    expect(undoes(panel)).toEqual([{ type: 'undo-new-chat', tabId }]);
    await panel.flush();
    // Pressed twice, it asks once: the offer goes at once, and the keyboard goes on in the request box.
    expect(undoButton(panel)).toBeNull();
    expect(document.activeElement).toBe(panel.find('chat-input'));
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: earlier }) });
    const shown = panel.find('turn');
    expect(shown?.textContent).toContain('add two mugs to the cart');
    expect(shown?.textContent).toContain('Adding two.');
    expect(shown?.textContent).toContain('Two mugs are in your cart.');
    expect(panel.findAll('tool-card').map((card) => card.getAttribute('data-state'))).toEqual(['done']);
    expect(note(panel)).toBe('The earlier chat is back.');
    expect(panel.find('new-chat-status')?.querySelector('.visually-hidden')?.textContent).toBe('The earlier chat is back.');
    expect(undoes(panel)).toHaveLength(1);
  });

  it('goes as soon as the person sends a request in the new chat', async () => {
    panel = await afterNewChat();
    const input = panel.find('chat-input') as HTMLTextAreaElement;
    input.value = 'show my cart';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await panel.flush();
    panel.find('send')?.click();
    await panel.flush();
    expect(note(panel)).toBe('');
    // The request's turn: the background let the earlier chat go.
    await panel.deliver({ type: 'turn', tabId, turn: turn({ id: 'turn-2', request: 'show my cart' }) });
    await panel.deliver({ type: 'turn', tabId, turn: turn({ id: 'turn-2', request: 'show my cart', outcome: 'answer', endedAt: 3_000 }) });
    expect(note(panel)).toBe('');
    expect(undoButton(panel)).toBeNull();
  });

  it('is not offered while a request runs, nor on another tab', async () => {
    panel = await mountPanel({ turns: [turn()], running: true, canUndoNewChat: true });
    expect(undoButton(panel)).toBeNull();
    panel.unmount();
    panel = await afterNewChat();
    panel.model.selectTab(tabId + 1);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 1 }) });
    expect(note(panel)).toBe('');
    // Back on the first tab, its offer stands as the background keeps it, but is no news: not read out again.
    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(note(panel)).toBe('');
    expect(inLiveRegion(quietOffer(panel)!)).toBe(false);
    undoButton(panel)?.click();
    expect(undoes(panel)).toEqual([{ type: 'undo-new-chat', tabId }]);
  });

  it('says so where the background could no longer bring the chat back, and offers Undo no more', async () => {
    panel = await afterNewChat();
    undoButton(panel)?.click();
    await panel.deliver({ type: 'error', message: 'The earlier chat can no longer be brought back.' });
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ id: 'turn-2', request: 'hi', outcome: 'answer', endedAt: 3_000 })] }) });
    expect(panel.find('session-error')?.textContent).toContain('The earlier chat can no longer be brought back.');
    expect(note(panel)).toBe('');
    expect(panel.findAll('turn')).toHaveLength(1);
  });

  it('cannot be pressed while the panel reconnects, so it never does nothing, and keeps the focus', async () => {
    panel = await afterNewChat();
    undoButton(panel)?.focus();
    panel.background.port.drop();
    await panel.flush();
    expect(undoButton(panel)?.getAttribute('aria-disabled')).toBe('true');
    undoButton(panel)?.click();
    expect(undoes(panel)).toEqual([]);
    // Not `disabled`: Chrome would take the focus off it, to the top of the panel.
    expect(undoButton(panel)?.disabled).toBe(false);
    expect(document.activeElement).toBe(undoButton(panel));
    // Connected again, the same words stay where they were: nothing new to read out.
    await vi.waitFor(() => expect(panel!.background.ports).toHaveLength(2));
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(note(panel)).toBe('Started a new chat.Undo');
    expect(undoButton(panel)?.hasAttribute('aria-disabled')).toBe(false);
  });

  it('is offered again where the worker stopped before it answered an Undo', async () => {
    panel = await afterNewChat();
    undoButton(panel)?.click();
    panel.background.port.drop();
    await vi.waitFor(() => expect(panel!.background.ports).toHaveLength(2));
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [], canUndoNewChat: true }) });
    expect(undoButton(panel)?.disabled).toBe(false);
    undoButton(panel)?.click();
    expect(undoes(panel)).toHaveLength(2);
  });
});
