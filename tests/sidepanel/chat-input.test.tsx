// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel, type MountedPanel } from './mount-panel';
import { engineStatus, sessionState, tabId, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

async function type(mounted: MountedPanel, text: string): Promise<HTMLTextAreaElement> {
  const input = mounted.find('chat-input') as HTMLTextAreaElement;
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await mounted.flush();
  return input;
}

async function press(mounted: MountedPanel, init: KeyboardEventInit): Promise<KeyboardEvent> {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  mounted.find('chat-input')?.dispatchEvent(event);
  await mounted.flush();
  return event;
}

describe('the request box', () => {
  it('takes the focus as the panel opens, where nothing has it, so typing goes to the request box', async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    panel = await mountPanel();
    expect(document.activeElement).toBe(panel.find('chat-input'));
  });

  it('says, pointed at or reached by the keyboard, why New chat is greyed out while a request runs', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    const newChat = panel.find('new-chat') as HTMLButtonElement;
    // Not disabled, which would take it out of the keyboard's reach: a press does nothing.
    expect(newChat.disabled).toBe(false);
    expect(newChat.getAttribute('aria-disabled')).toBe('true');
    expect(newChat.title).toBe('A new chat starts once this request ends: Stop ends it now.');
    expect(panel.find('new-chat-wait')).toBeNull();
    newChat.focus();
    await act(() => newChat.click());
    expect(panel.posted().filter((message) => message.type === 'new-chat')).toEqual([]);
    // Pressed, it says why where a keyboard user sees it too, until the run ends.
    expect(panel.find('new-chat-wait')?.textContent).toBe('A new chat starts once this request ends: Stop ends it now.');
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'answer' })] }) });
    expect(panel.find('new-chat-wait')).toBeNull();
    expect(newChat.getAttribute('aria-disabled')).toBeNull();
    expect(newChat.title).toBe('');
    expect(document.activeElement).toBe(newChat);
    newChat.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'new-chat', tabId });
  });

  it('sends on Enter and clears the box', async () => {
    panel = await mountPanel();
    const input = await type(panel, '  add two mugs to the cart ');
    const event = await press(panel, { key: 'Enter' });
    expect(event.defaultPrevented).toBe(true);
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'add two mugs to the cart' });
    expect(input.value).toBe('');
  });

  it('does not send on Shift+Enter, which starts a new line', async () => {
    panel = await mountPanel();
    await type(panel, 'first line');
    const event = await press(panel, { key: 'Enter', shiftKey: true });
    expect(event.defaultPrevented).toBe(false);
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([]);
  });

  it('sends with the Send button, which an empty box disables', async () => {
    panel = await mountPanel();
    expect((panel.find('send') as HTMLButtonElement).disabled).toBe(true);
    await type(panel, 'show my cart');
    panel.find('send')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'show my cart' });
  });

  it('takes no request for an engine the check found cannot run here, and does once another is chosen', async () => {
    const cannotRun = engineStatus({ state: 'error', errorDuring: 'check', error: 'WebGPU is turned off.' });
    panel = await mountPanel({ engine: cannotRun });
    await type(panel, 'show my cart');
    expect((panel.find('send') as HTMLButtonElement).disabled).toBe(true);
    expect((panel.find('chat-input') as HTMLTextAreaElement).placeholder).toBe('WebLLM cannot run here: pick another engine in the options');
    await press(panel, { key: 'Enter' });
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([]);
    // Said where the person looks, as the placeholder said it before they typed.
    expect(panel.find('request-note')?.textContent).toBe('WebLLM cannot run here: pick another engine in the options. What you typed stays here.');
    // The person picks the local server in the options: the snapshot lets the request through.
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: engineStatus({ engineId: 'openai', state: 'idle' }) }) });
    expect((panel.find('send') as HTMLButtonElement).disabled).toBe(false);
    expect(panel.find('request-note')?.textContent).toBe('');
    // The engine fails its check again: Enter was not pressed for that, so nothing is said under the box.
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: cannotRun }) });
    expect(panel.find('request-note')?.textContent).toBe('');
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: engineStatus({ engineId: 'openai', state: 'idle' }) }) });
    await press(panel, { key: 'Enter' });
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'show my cart' });
  });

  it('greys out the suggestions where the engine cannot run here, each saying why when pointed at', async () => {
    const cannotRun = engineStatus({ state: 'error', errorDuring: 'check', error: 'WebGPU is turned off.' });
    panel = await mountPanel({ engine: cannotRun, suggestions: ['Show my cart', 'Search products'] });
    const chips = panel.findAll('suggestion') as HTMLButtonElement[];
    expect(chips.map((chip) => [chip.disabled, chip.title])).toEqual([
      [true, 'WebLLM cannot run here: pick another engine in the options.'],
      [true, 'WebLLM cannot run here: pick another engine in the options.'],
    ]);
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: engineStatus({ engineId: 'openai', state: 'idle' }), suggestions: ['Show my cart'] }) });
    const [chip] = panel.findAll('suggestion') as HTMLButtonElement[];
    expect([chip!.disabled, chip!.title]).toEqual([false, '']);
  });

  it('says why Enter sent nothing on a site where the agent is off, or on a page without tools', async () => {
    panel = await mountPanel({ agentOff: true });
    await type(panel, 'show my cart');
    await press(panel, { key: 'Enter' });
    expect(panel.find('request-note')?.textContent).toBe('The agent is off on this site: turn it on above to ask. What you typed stays here.');
    await panel.deliver({ type: 'snapshot', state: sessionState({ toolCount: 0 }) });
    expect(panel.find('request-note')?.textContent).toBe('This page offers no tools to ask for. What you typed stays here.');
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([]);
  });

  it('does not send a second request while a run is going, and offers Stop', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    expect(panel.find('send')).toBeNull();
    await type(panel, 'and a teapot');
    await press(panel, { key: 'Enter' });
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([]);
    // Said, not just ignored: the text stays for later, and the note goes once it is edited.
    expect(panel.find('request-note')?.textContent).toBe('One request runs at a time: wait for this one to end, or press Stop. What you typed stays here.');
    expect((panel.find('chat-input') as HTMLTextAreaElement).value).toBe('and a teapot');
    await type(panel, 'and a teapot, blue');
    expect(panel.find('request-note')?.textContent).toBe('');

    panel.find('stop')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'stop', tabId });
  });

  it('says to answer the question first where Enter is pressed while a call waits for the person', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'tool', callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'waiting' }] }) });
    await type(panel, 'yes');
    await press(panel, { key: 'Enter' });
    expect(panel.find('request-note')?.textContent).toBe('Answer the question above with its buttons, or press Stop. What you typed stays here.');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ outcome: 'answer', endedAt: 2_000 }) });
    expect(panel.find('request-note')?.textContent).toBe('');
    // A later run, the text still there and no Enter pressed in it: it refused nothing.
    await panel.deliver({ type: 'turn', tabId, turn: turn({ id: 'turn-2' }) });
    expect((panel.find('chat-input') as HTMLTextAreaElement).value).toBe('yes');
    expect(panel.find('request-note')?.textContent).toBe('');
  });

  it('stops a run on Escape in the request box, and does nothing with Escape otherwise', async () => {
    panel = await mountPanel();
    await press(panel, { key: 'Escape' });
    expect(panel.posted().filter((message) => message.type === 'stop')).toEqual([]);
    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    await press(panel, { key: 'Escape', isComposing: true });
    expect(panel.posted().filter((message) => message.type === 'stop')).toEqual([]);
    await press(panel, { key: 'Escape' });
    expect(panel.posted().at(-1)).toEqual({ type: 'stop', tabId });
  });

  it('stops a run on Escape wherever the focus is in the panel, but not twice, nor where something else took the key', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    const stops = () => panel!.posted().filter((message) => message.type === 'stop').length;
    const elsewhere = document.createElement('button');
    panel.container.append(elsewhere);
    elsewhere.focus();
    const taken = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    elsewhere.addEventListener('keydown', (event) => event.preventDefault(), { once: true });
    elsewhere.dispatchEvent(taken);
    expect(stops()).toBe(0);
    elsewhere.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(stops()).toBe(1);
    // In the request box its own handler stops the run; the panel's does not stop it again.
    await press(panel, { key: 'Escape' });
    expect(stops()).toBe(2);
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'stopped', endedAt: 2_000 })] }) });
    elsewhere.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(stops()).toBe(2);
  });

  it('gives the request box the focus Stop had when the run ends, and leaves focus the person moved on from Stop where it is', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    (panel.find('stop') as HTMLButtonElement).focus();
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'answer', endedAt: 2_000 })] }) });
    expect(document.activeElement).toBe(panel.find('chat-input'));

    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'answer', endedAt: 2_000 }), turn({ id: 'turn-2' })], running: true }) });
    (panel.find('stop') as HTMLButtonElement).focus();
    // On to another control (the last turn's Trace link, say) while the run goes on.
    const elsewhere = document.createElement('button');
    panel.container.append(elsewhere);
    elsewhere.focus();
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'answer', endedAt: 2_000 }), turn({ id: 'turn-2', outcome: 'answer', endedAt: 3_000 })] }) });
    expect(document.activeElement).toBe(elsewhere);

    // Moved on to a control that went too (an approval's buttons): the box, not the page body.
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ id: 'turn-3' })], running: true }) });
    (panel.find('stop') as HTMLButtonElement).focus();
    elsewhere.focus();
    elsewhere.remove();
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ id: 'turn-3', outcome: 'answer', endedAt: 4_000 })] }) });
    expect(document.activeElement).toBe(panel.find('chat-input'));
  });

  it('takes a double click on Send as one request, not a request and a Stop', async () => {
    panel = await mountPanel();
    await type(panel, 'add a mug');
    panel.find('send')?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    await panel.flush();
    panel.find('stop')?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 2 }));
    expect(panel.posted().map((message) => message.type)).toEqual(['subscribe', 'send']);
    expect(document.activeElement).toBe(panel.find('chat-input'));
  });

  it('takes a double click on Stop as one Stop, not a Stop and the sending of what was typed meanwhile', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    await type(panel, 'half-typed next questi');
    panel.find('stop')?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'stopped', endedAt: 2_000 })] }) });
    panel.find('send')?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 2 }));
    await panel.flush();
    expect(panel.posted().map((message) => message.type)).toEqual(['subscribe', 'stop']);
    expect((panel.find('chat-input') as HTMLTextAreaElement).value).toBe('half-typed next questi');
    // A single click, or Enter, still sends.
    panel.find('send')?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'half-typed next questi' });
  });

  it('treats the time between sending and the first turn as running', async () => {
    panel = await mountPanel();
    await type(panel, 'add a mug');
    await press(panel, { key: 'Enter' });
    await type(panel, 'add a mug');
    await press(panel, { key: 'Enter' });
    expect(panel.posted().filter((message) => message.type === 'send')).toHaveLength(1);
    expect(panel.find('stop')).not.toBeNull();
  });

  it('starts a new chat', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'answer' })] });
    panel.find('new-chat')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'new-chat', tabId });
  });

  it('puts a clicked suggestion in the request box to finish, the cursor at its end, and sends it only on Enter', async () => {
    panel = await mountPanel({ suggestions: ['Show my cart', 'Search products'] });
    const chips = panel.findAll('suggestion');
    expect(chips.map((chip) => chip.textContent)).toEqual(['Show my cart', 'Search products']);
    chips[1]?.click();
    await panel.flush();
    const input = panel.find('chat-input') as HTMLTextAreaElement;
    expect(input.value).toBe('Search products ');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([16, 16]);
    expect(panel.posted().filter((message) => message.type === 'send')).toEqual([]);

    await type(panel, 'Search products for a green mug');
    await press(panel, { key: 'Enter' });
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'Search products for a green mug' });
  });

  it('lays out a suggestion in its own direction: a Hebrew title keeps its question mark at its end', async () => {
    panel = await mountPanel({ suggestions: ['חיפוש מוצרים?', 'Show my cart'] });
    expect(panel.findAll('suggestion').map((chip) => chip.getAttribute('dir'))).toEqual(['auto', 'auto']);
  });

  it('never loses what the person typed to a suggestion: another chip replaces only a chip\'s words left as they were', async () => {
    panel = await mountPanel({ suggestions: ['Show my cart', 'Search products'] });
    const input = () => panel!.find('chat-input') as HTMLTextAreaElement;
    const chips = panel.findAll('suggestion');
    chips[0]?.click();
    await panel.flush();
    chips[1]?.click();
    await panel.flush();
    expect(input().value).toBe('Search products ');
    await type(panel, 'a green mug, then');
    chips[0]?.click();
    await panel.flush();
    expect(input().value).toBe('a green mug, then Show my cart ');
  });

  it('says so when a paste is longer than a request may be, until the request is sent or edited', async () => {
    panel = await mountPanel();
    const input = panel.find('chat-input') as HTMLTextAreaElement;
    const note = () => panel!.find('request-cut')!;
    expect(note().getAttribute('role')).toBe('status');
    expect(note().textContent).toBe('');
    /** A paste of `text` as the browser does it: the paste event, then the box holds what fits, then input. */
    const paste = async (text: string) => {
      const event = new Event('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'clipboardData', { value: { getData: () => text } });
      input.dispatchEvent(event);
      await type(panel!, text.slice(0, 20_000));
    };
    await paste('fits '.repeat(1_000));
    expect(note().textContent).toBe('');
    await type(panel, '');
    await paste('x'.repeat(25_000));
    expect(input.value).toHaveLength(20_000);
    expect(note().textContent).toBe('Only the first 20,000 characters fit in a request: the rest of what you pasted was left out.');
    await type(panel, 'x'.repeat(19_990));
    expect(note().textContent).toBe('');
    await paste('y'.repeat(25_000));
    await press(panel, { key: 'Enter' });
    expect(note().textContent).toBe('');
  });
});
