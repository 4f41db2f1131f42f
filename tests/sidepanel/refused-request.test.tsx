// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountPanel, type MountedPanel } from './mount-panel';
import { sessionState, tabId, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  panel?.unmount();
  vi.useRealTimers();
});

const replayRefusal = 'A replay from the trace viewer is running in this tab. Wait for it to end, or cancel it in the trace viewer, then send your request again.';
const otherTab = { tabId: 8, origin: 'https://tea.example', url: 'https://tea.example/' };
const input = () => panel!.find('chat-input') as HTMLTextAreaElement;

/** The panel sent `request` in its tab, then turned to the other tab before the background answered. */
async function sentThenTurnedAway(request: string) {
  panel = await mountPanel();
  panel.model.setDraft(request);
  expect(panel.model.send()).toBe(true);
  panel.model.selectTab(otherTab.tabId);
  await panel.deliver({ type: 'snapshot', state: sessionState(otherTab) });
  return panel;
}

describe('a request the background refuses', () => {
  it('is refused on its own tab, not on the tab the panel turned to, and is back in its box with the refusal on the way back', async () => {
    panel = await sentThenTurnedAway('add two mugs');
    await panel.deliver({ type: 'error', tabId, message: replayRefusal });
    expect(panel.find('session-error')).toBeNull();
    expect(input().value).toBe('');

    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    expect(input().value).toBe('add two mugs');
    expect(panel.find('session-error')?.textContent).toContain(replayRefusal);
    expect(panel.model.canSend.value).toBe(true);
  });

  it("goes in front of what was typed in its tab before the panel left it", async () => {
    panel = await mountPanel();
    panel.model.setDraft('add two mugs');
    panel.model.send();
    panel.model.setDraft('and a teapot');
    panel.model.selectTab(otherTab.tabId);
    await panel.deliver({ type: 'error', tabId, message: replayRefusal });
    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState() });
    expect(input().value).toBe('add two mugs\nand a teapot');
  });

  it('goes in front of the words typed after it in the same tab, none of them lost', async () => {
    panel = await mountPanel();
    panel.model.setDraft('check out my cart');
    panel.model.send();
    panel.model.setDraft('and');
    await panel.deliver({ type: 'error', tabId, message: 'A request is still running: stop it first.' });
    expect(input().value).toBe('check out my cart\nand');
    expect(panel.find('session-error')?.textContent).toContain('A request is still running: stop it first.');
  });

  it('stays taken once its turn came, even after the panel turned away: a later error there brings nothing back', async () => {
    panel = await sentThenTurnedAway('add two mugs');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ request: 'add two mugs' }) });
    await panel.deliver({ type: 'error', tabId, message: 'The earlier chat can no longer be brought back.' });
    panel.model.selectTab(tabId);
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ request: 'add two mugs' })], running: true }) });
    expect(input().value).toBe('');
    expect(panel.find('session-error')).toBeNull();
  });

  it('goes back to its own tab when the connection drops after the panel turned away', async () => {
    panel = await sentThenTurnedAway('add two mugs');
    panel.model.setDraft('a pot of green tea');
    panel.background.port.drop();
    await panel.flush();
    expect(input().value).toBe('a pot of green tea');
    panel.model.selectTab(tabId);
    await panel.flush();
    expect(input().value).toBe('add two mugs');
  });
});
