// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusInPanel } from '../../components/chat/focus-request-box';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let stop = () => {};
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

/** A panel with a turn's Copy button, a way back on, and the request box. */
function panel() {
  document.body.innerHTML = '<div class="panel"><div class="turn"><button id="copy">Copy</button></div><button id="agent-on">Turn it back on</button><textarea data-testid="chat-input"></textarea></div>';
  stop = keepFocusInPanel(document.querySelector<HTMLElement>('.panel')!);
  return { copy: document.querySelector<HTMLElement>('#copy')!, turn: document.querySelector('.turn')!, agentOn: document.querySelector<HTMLElement>('#agent-on')! };
}

describe("the side panel's focus, where what held it goes", () => {
  it('goes to the request box, not to the page body, where a turn with the focused button is drawn away', async () => {
    const { copy, turn } = panel();
    copy.focus();
    turn.remove();
    await pause(250);
    expect(document.activeElement?.getAttribute('data-testid')).toBe('chat-input');
  });

  it('stays where a part of the panel put it meanwhile', async () => {
    const { copy, turn, agentOn } = panel();
    copy.focus();
    turn.remove();
    await pause(20);
    agentOn.focus();
    await pause(250);
    expect(document.activeElement).toBe(agentOn);
  });

  it('stays on nothing where the person put it there before the button went', async () => {
    const { copy, turn } = panel();
    copy.focus();
    copy.blur();
    await pause(10);
    turn.remove();
    await pause(250);
    expect(document.activeElement).toBe(document.body);
  });
});
