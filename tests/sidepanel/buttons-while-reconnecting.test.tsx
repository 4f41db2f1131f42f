// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountPanel, type MountedPanel } from './mount-panel';
import { sessionState, tabId, toolCard, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  panel?.unmount();
  vi.useRealTimers();
});

/** What the panel asked the background, subscriptions and heartbeats aside. */
const asked = () => panel!.posted().filter((message) => message.type !== 'subscribe');

/** The worker stops under the panel, which waits to connect again; `button` had the keyboard's focus. */
async function reconnectingWithFocusOn(testId: string) {
  const button = panel!.find(testId) as HTMLButtonElement;
  button.focus();
  panel!.background.port.drop();
  await panel!.flush();
  expect(panel!.model.connection.value).toBe('reconnecting');
  return panel!.find(testId) as HTMLButtonElement;
}

/** A press while reconnecting: nothing asked, and the focus stays on the button, which says it cannot be pressed. */
async function pressGoesNowhere(button: HTMLButtonElement) {
  expect(button.getAttribute('aria-disabled')).toBe('true');
  // Not `disabled`: Chrome would take the focus off it, to the top of the panel.
  expect(button.disabled).toBe(false);
  button.click();
  await panel!.flush();
  expect(asked()).toEqual([]);
  expect(document.activeElement).toBe(button);
}

/** Connected again: the button can be pressed. */
async function connectedAgain(state: Parameters<typeof sessionState>[0]) {
  await vi.advanceTimersByTimeAsync(150);
  await panel!.deliver({ type: 'snapshot', state: sessionState(state) });
}

describe('the buttons that ask the background, while the panel reconnects', () => {
  it('New chat waits, keeping the focus, and starts the new chat once connected', async () => {
    const answered = { turns: [turn({ outcome: 'answer' as const })] };
    panel = await mountPanel(answered);
    await pressGoesNowhere(await reconnectingWithFocusOn('new-chat'));
    expect(panel.find('new-chat-note')).toBeNull();
    await connectedAgain(answered);
    const newChat = panel.find('new-chat') as HTMLButtonElement;
    expect(newChat.hasAttribute('aria-disabled')).toBe(false);
    newChat.click();
    expect(asked()).toEqual([{ type: 'new-chat', tabId }]);
  });

  it('Stop waits, keeping the focus, and stops the run once connected', async () => {
    const running = { turns: [turn()], running: true };
    panel = await mountPanel(running);
    await pressGoesNowhere(await reconnectingWithFocusOn('stop'));
    await connectedAgain(running);
    (panel.find('stop') as HTMLButtonElement).click();
    expect(asked()).toEqual([{ type: 'stop', tabId }]);
  });

  it('Escape in the request box does not stop the run either, until connected again', async () => {
    const running = { turns: [turn()], running: true };
    panel = await mountPanel(running);
    const stop = vi.spyOn(panel.model, 'stop');
    /** Whether the request box took the Escape as a Stop. */
    const escapeTaken = async () => {
      const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
      panel!.find('chat-input')!.dispatchEvent(event);
      await panel!.flush();
      return event.defaultPrevented;
    };
    panel.background.port.drop();
    await panel.flush();
    expect(panel.model.connection.value).toBe('reconnecting');
    expect(await escapeTaken()).toBe(false);
    expect(stop).not.toHaveBeenCalled();
    await connectedAgain(running);
    expect(await escapeTaken()).toBe(true);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(asked()).toEqual([{ type: 'stop', tabId }]);
  });

  it('Enter in the request box sends nothing while reconnecting, says so, and sends once connected', async () => {
    panel = await mountPanel();
    const input = panel.find('chat-input') as HTMLTextAreaElement;
    input.value = 'show my cart';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    panel.background.port.drop();
    await panel.flush();
    const enter = async () => {
      panel!.find('chat-input')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      await panel!.flush();
    };
    await enter();
    expect(asked()).toEqual([]);
    expect(panel.find('request-note')?.textContent).toBe('The panel is connecting to the extension: press Enter again in a moment. What you typed stays here.');
    await connectedAgain({});
    expect(panel.find('request-note')?.textContent).toBe('');
    await enter();
    expect(asked()).toEqual([{ type: 'send', tabId, text: 'show my cart' }]);
  });

  it('Allow and Deny wait, keeping the focus, and the answer goes once connected', async () => {
    const waiting = { turns: [turn({ items: [toolCard({ state: 'waiting', approvalReason: 'consequential', name: 'checkout' })] })], running: true };
    panel = await mountPanel(waiting);
    const allow = await reconnectingWithFocusOn('approve-once');
    expect((panel.find('deny') as HTMLButtonElement).getAttribute('aria-disabled')).toBe('true');
    await pressGoesNowhere(allow);
    await connectedAgain(waiting);
    const allowAgain = panel.find('approve-once') as HTMLButtonElement;
    expect(allowAgain.hasAttribute('aria-disabled')).toBe(false);
    allowAgain.click();
    expect(asked()).toEqual([{ type: 'approve', tabId, callId: toolCard().callId, decision: 'allow-once' }]);
  });
});
