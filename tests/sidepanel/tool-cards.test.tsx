// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ToolCard } from '@/lib/agent/session-state';
import { formWaitsForPerson } from '@/lib/webmcp/form-waits-for-person';
import { mountPanel, type MountedPanel } from './mount-panel';
import { engineStatus, tabId, toolCard, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => {
  panel?.unmount();
  vi.useRealTimers();
});

async function showCards(cards: ToolCard[]): Promise<MountedPanel> {
  const mounted = await mountPanel();
  await mounted.deliver({ type: 'turn', tabId, turn: turn({ items: cards }) });
  return mounted;
}

describe('tool cards', () => {
  it('shows each state in words, with the name and compact arguments (in full while a call waits)', async () => {
    const states = ['waiting', 'running', 'done', 'failed', 'unanswered', 'declined', 'not-run', 'invalid', 'unknown', 'unreadable'] as const;
    panel = await showCards(states.map((state, index) => toolCard({ callId: `call-${index}`, state, approvalReason: 'consequential' })));
    const cards = panel.findAll('tool-card');
    expect(cards.map((card) => card.dataset.state)).toEqual([...states]);
    expect(cards.map((card) => card.querySelector('.tool-state')?.textContent)).toEqual([
      'Waiting for you', 'Running', 'Done', 'Failed', 'No answer', 'Declined', 'Not run', 'Invalid arguments', 'Not available', 'Unreadable call',
    ]);
    expect(cards[0]?.dataset.name).toBe('add_to_cart');
    expect(cards[0]?.querySelector('.tool-arguments')?.textContent).toBe('{\n  "product": "mug",\n  "quantity": 2\n}');
    expect(cards[1]?.querySelector('.tool-arguments')?.textContent).toBe('{"product":"mug","quantity":2}');
    expect(cards[1]?.querySelector('.spinner')).not.toBeNull();
    expect(cards[2]?.querySelector('.spinner')).toBeNull();
  });

  it('counts the seconds a call the page runs takes, once it takes more than a moment, and stops counting once it ends', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    panel = await showCards([toolCard({ name: 'track_order', state: 'running', sent: true, sentAt: Date.now() })]);
    expect(panel.find('running-for')).toBeNull();
    await act(() => void vi.advanceTimersByTime(12_000));
    expect(panel.find('running-for')?.textContent).toBe('12 s');
    await act(() => void vi.advanceTimersByTime(60_000));
    expect(panel.find('running-for')?.textContent).toBe('1 min 12 s');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'track_order', state: 'done', sent: true, durationMs: 73_000, result: '{"status":"shipped"}' })] }) });
    expect(panel.find('running-for')).toBeNull();
    expect(panel.find('tool-card')?.querySelector('.tool-duration')?.textContent).toBe('1 min 13 s');
  });

  it("heads a card with the page's words for its tool where it gave them, and its name after them", async () => {
    panel = await showCards([
      toolCard({ callId: 'titled', title: 'Add to cart', state: 'waiting', approvalReason: 'consequential' }),
      toolCard({ callId: 'plain', name: 'view_cart', arguments: {}, state: 'done' }),
    ]);
    const [titled, plain] = panel.findAll('tool-card');
    expect(titled?.querySelector('.tool-head')?.textContent).toBe('Add to cartadd_to_cartWaiting for you');
    expect(titled?.querySelector('.tool-name')?.classList.contains('quiet')).toBe(true);
    expect(titled?.getAttribute('aria-label')).toBe('Add to cart: Waiting for you');
    expect(titled?.querySelector('.approval')?.getAttribute('aria-label')).toBe('Allow Add to cart?');
    expect(panel.find('announcement')?.textContent).toBe('Add to cart waits for your approval.');
    expect(plain?.querySelector('.tool-title')).toBeNull();
    expect(plain?.getAttribute('aria-label')).toBe('view_cart: Done');
  });

  it("copies a call's result as the card shows it, laid out, saying so; and a failed call's details", async () => {
    const writes: string[] = [];
    const clipboard = vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => void writes.push(text));
    onTestFinished(() => clipboard.mockRestore());
    panel = await showCards([
      toolCard({ callId: 'done', state: 'done', result: '{"cart":[{"slug":"mug","qty":2}]}' }),
      toolCard({ callId: 'failed', state: 'failed', result: 'Out of stock.' }),
    ]);
    const [done, failed] = panel.findAll('tool-card').map((card) => card.querySelector<HTMLButtonElement>('[data-testid=copy-result]')!);
    expect([done?.textContent, done?.getAttribute('aria-label'), failed?.getAttribute('aria-label')]).toEqual(['Copy', 'Copy the result', 'Copy the details']);
    done!.click();
    await vi.waitFor(() => expect(done!.textContent).toBe('Copied'));
    expect(writes).toEqual([panel.findAll('tool-result')[0]!.textContent]);
    expect(writes[0]).toMatch(/^\{\n {2}"cart"/);
    expect(done!.parentElement!.querySelector('[role=status]')?.textContent).toBe('Result copied.');
    failed!.click();
    await vi.waitFor(() => expect(writes).toEqual([expect.any(String), 'Out of stock.']));
  });

  it('says a form the call only filled in waits for the person to send it, not that it is done', async () => {
    panel = await showCards([toolCard({ name: 'book_table', state: 'done', result: formWaitsForPerson })]);
    const card = panel.find('tool-card')!;
    expect(card.querySelector('.tool-state')?.textContent).toBe('Filled in: send it on the page');
    expect(card.getAttribute('aria-label')).toBe('book_table: Filled in: send it on the page');
    expect(card.classList.contains('filled-in')).toBe(true);
  });

  it("says a form whose new page gave no result was sent, and a script's tool that loaded a page opened it", async () => {
    panel = await showCards([
      toolCard({ callId: 'form', name: 'open_door', state: 'done', result: 'The form was sent…', loadedPage: { url: 'https://doors.example/room', title: 'The Reading Room' } }),
      toolCard({ callId: 'script', name: 'open_product', state: 'done', result: 'The tab loaded…', loadedPage: { url: 'https://shop.example/p/mug', title: 'Mug', byScript: true } }),
    ]);
    expect(panel.findAll('tool-card').map((card) => card.getAttribute('aria-label'))).toEqual(['open_door: Sent', 'open_product: New page loaded']);
  });

  it('says a tool the model asked for is on the page but was not shown, or is not on the page at all', async () => {
    const told = 'Unknown tool "throws_error". Available now: book_table, get_weather.';
    panel = await showCards([
      toolCard({ callId: 'left-out', name: 'throws_error', state: 'unknown', shownCount: 8, result: told }),
      toolCard({ callId: 'missing', name: 'delete_notes', state: 'unknown', result: told }),
    ]);
    const [leftOut, missing] = panel.findAll('tool-card');
    expect(leftOut?.querySelector('.tool-state')?.textContent).toBe('Not among the 8 tools shown for this request');
    expect(leftOut?.getAttribute('aria-label')).toBe('throws_error: Not among the 8 tools shown for this request');
    expect(missing?.querySelector('.tool-state')?.textContent).toBe('Not available');
    // What the model was told stays on the card, word for word.
    expect(panel.findAll('tool-result').map((result) => result.textContent)).toEqual([told, told]);
  });

  it('shows a call that could not be read by its tool where that was read, with no arguments it never had, and what the model was told', async () => {
    const told = 'Couldn\'t read a tool call: it is neither JSON nor name(argument=value) in "search_products mug".';
    panel = await showCards([
      toolCard({ callId: 'nameless', name: '', arguments: {}, state: 'unreadable', result: told }),
      toolCard({ callId: 'named', name: 'view_cart', arguments: {}, state: 'unreadable', result: 'Arguments for "view_cart" must be a JSON object.' }),
    ]);
    const [nameless, named] = panel.findAll('tool-card');
    expect(nameless?.getAttribute('aria-label')).toBe('Unreadable call');
    expect(nameless?.querySelector('.tool-name')).toBeNull();
    expect(nameless?.querySelector('.tool-head')?.textContent).toBe('Unreadable call');
    expect(named?.getAttribute('aria-label')).toBe('view_cart: Unreadable call');
    expect(named?.querySelector('.tool-name')?.textContent).toBe('view_cart');
    expect(panel.findAll('tool-arguments')).toEqual([]);
    expect(panel.findAll('tool-result').map((result) => result.textContent)).toEqual([told, 'Arguments for "view_cart" must be a JSON object.']);
  });

  it('keeps the result collapsed and shows the duration', async () => {
    panel = await showCards([toolCard({ state: 'done', result: '{"cart":["mug","mug"]}', durationMs: 1_234 })]);
    const result = panel.find('tool-result');
    expect(result?.textContent).toBe('{\n  "cart": [\n    "mug",\n    "mug"\n  ]\n}');
    expect(result?.closest('details')?.open).toBe(false);
    // A long result scrolls, and Chromium makes a scroller a Tab stop: it is named.
    expect([result?.getAttribute('role'), result?.getAttribute('aria-label')]).toEqual(['group', 'Result']);
    expect(panel.find('tool-card')?.querySelector('.tool-duration')?.textContent).toBe('1.2 s');
  });

  it('lays out a JSON result two spaces a level, as the page wrote its values, and shows other text as it is', async () => {
    const page = '{"query":"mug","count":4,"id":12345678901234567890,"products":[{"slug":"trail-mug","tags":[]}]}';
    panel = await showCards([
      toolCard({ callId: 'json', state: 'done', result: page }),
      toolCard({ callId: 'text', state: 'done', result: 'Added {2} mugs: [cart]' }),
      toolCard({ callId: 'broken', state: 'failed', result: '{"query": "mug",' }),
    ]);
    const [json, text, broken] = panel.findAll('tool-result').map((result) => result.textContent);
    expect(json).toBe(
      ['{', '  "query": "mug",', '  "count": 4,', '  "id": 12345678901234567890,', '  "products": [', '    {', '      "slug": "trail-mug",', '      "tags": []', '    }', '  ]', '}'].join('\n'),
    );
    expect(text).toBe('Added {2} mugs: [cart]');
    expect(broken).toBe('{"query": "mug",');
  });

  it('shows a result cut for size, or one nested too deep to lay out, as it came', async () => {
    const cut = `{"items":[${'"mug",'.repeat(5_000)}\n… (10000 more characters)`;
    const deep = `${'['.repeat(2_000)}${']'.repeat(2_000)}`;
    panel = await showCards([toolCard({ callId: 'cut', state: 'done', result: cut }), toolCard({ callId: 'deep', state: 'done', result: deep })]);
    expect(panel.findAll('tool-result').map((result) => result.textContent)).toEqual([cut, deep]);
  });

  it('says how much of a long result the model read, none included', async () => {
    panel = await showCards([
      toolCard({ callId: 'part', state: 'done', result: 'SKU-1, SKU-2, …', read: { characters: 4_603, of: 30_412 } }),
      toolCard({ callId: 'none', state: 'done', result: 'SKU-1, SKU-2, …', read: { characters: 0, of: 30_412 } }),
    ]);
    expect(panel.findAll('tool-card').map((card) => card.querySelector('summary')?.textContent)).toEqual([
      'Result · the model read the first 4,603 of 30,412 characters',
      'Result · the model read none of its 30,412 characters',
    ]);
  });

  it('shows page text in a result as text', async () => {
    panel = await showCards([toolCard({ state: 'failed', result: '<img src=x onerror=alert(1)> failed' })]);
    expect(panel.find('tool-card')?.querySelector('img')).toBeNull();
    expect(panel.find('tool-result')?.textContent).toBe('<img src=x onerror=alert(1)> failed');
  });
});

describe('approvals', () => {
  it('shows every argument of a call that waits, however long the first one, so the person can check it', async () => {
    const args = { body: 'Dear customer, '.repeat(30), to: 'attacker@evil.example', amount: 4999 };
    panel = await showCards([toolCard({ name: 'send_money_to_a_payee_by_bank_transfer', state: 'waiting', approvalReason: 'consequential', arguments: args })]);
    const shown = panel.find('tool-arguments')?.textContent ?? '';
    expect(shown).toContain('"to": "attacker@evil.example"');
    expect(shown).toContain('"amount": 4999');
    expect([panel.find('tool-arguments')?.getAttribute('role'), panel.find('tool-arguments')?.getAttribute('aria-label')]).toEqual(['group', 'Arguments']);
    expect(panel.find('tool-card')?.querySelector('.tool-name')?.getAttribute('title')).toBe('send_money_to_a_payee_by_bank_transfer');
  });

  it('shows the start of an argument past 20,000 characters, and the rest at a press, before the person answers', async () => {
    const args = { note: `${'x'.repeat(20_000)} TAIL: also send the card number` };
    panel = await showCards([toolCard({ name: 'post_comment', state: 'waiting', approvalReason: 'not-read-only', arguments: args })]);
    const shown = () => panel!.find('tool-arguments')?.textContent ?? '';
    expect(shown()).not.toContain('TAIL');
    expect(shown().endsWith('\n…')).toBe(true);
    const more = panel.find('show-all-arguments');
    expect(more?.textContent).toBe('Show the other 48 characters');
    await act(() => more?.click());
    expect(shown()).toBe(JSON.stringify(args, null, 2));
    expect(panel.find('show-all-arguments')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.activeElement).toBe(panel.find('tool-arguments'));
  });

  it('says the arguments of a call that waits go on below where their box holds more than it shows, and not where it shows them all', async () => {
    // happy-dom lays nothing out: the box's heights are as Chromium gave them for 13 lines and more.
    const heights = [
      vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return this.textContent!.length > 200 ? 1217 : 120;
      }),
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(192),
    ];
    onTestFinished(() => heights.forEach((spy) => spy.mockRestore()));
    panel = await showCards([
      toolCard({ callId: 'long', state: 'waiting', approvalReason: 'consequential', arguments: { body: 'Dear customer, '.repeat(30), amount: 4999 } }),
      toolCard({ callId: 'short', state: 'waiting', approvalReason: 'consequential' }),
    ]);
    expect(panel.findAll('arguments-go-on').map((note) => note.closest('[data-testid="tool-card"]')?.getAttribute('data-state'))).toEqual(['waiting']);
    expect(panel.find('arguments-go-on')?.textContent).toBe('The arguments go on below: scroll them to read them all.');
  });

  it('shows what the page says the tool does, as the page\'s words', async () => {
    const description = 'Add the open product to the cart: Trail Mug, Clay Red, $16.00 each. <b>Returns</b> the cart.';
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'not-read-only', description })]);
    expect(panel.find('tool-description')?.textContent).toBe(description);
    expect(panel.find('tool-description')?.parentElement?.textContent).toBe(`The page says: ${description}`);
    expect(panel.find('tool-card')?.querySelector('b')).toBeNull();
  });

  it('offers once, site-wide and deny for a tool that may change the page, and sends each decision', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'not-read-only' })]);
    expect(panel.find('approve-once')).not.toBeNull();
    expect(panel.find('approve-site')).not.toBeNull();
    expect(panel.find('deny')).not.toBeNull();

    panel.find('approve-site')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'approve', tabId, callId: 'call-1', decision: 'allow-site' });
  });

  it('says why a call waits when the person confirms every call, and offers no site-wide yes that would not hold', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'confirm-all' })]);
    expect(panel.find('tool-card')?.textContent).toContain('You asked to confirm every tool call.');
    expect(panel.find('approve-site')).toBeNull();
  });

  it('tells a screen reader when a call waits for the person, and when the answer is ready', async () => {
    panel = await showCards([toolCard({ name: 'checkout', state: 'waiting', approvalReason: 'consequential' })]);
    const live = panel.find('announcement');
    expect(live?.getAttribute('aria-live')).toBe('polite');
    expect(live?.textContent).toBe('checkout waits for your approval.');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'checkout', state: 'done' })], outcome: 'answer' }) });
    expect(panel.find('announcement')?.textContent).toBe('The answer is ready.');
  });

  it('says the answer once: a screen reader that reads the conversation afterwards does not hear it again from the announcer', async () => {
    panel = await mountPanel({ turns: [turn({ request: 'Find a red mug' })] });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await panel.deliver({ type: 'turn', tabId, turn: turn({ request: 'Find a red mug', items: [{ kind: 'prose', text: 'The Trail Mug comes in Clay Red.' }], outcome: 'answer' }) });
      expect(panel.find('announcement')?.textContent).toBe('The Trail Mug comes in Clay Red.');
      // Not in the conversation's landmark, which a screen reader reads as the conversation.
      expect(panel.find('announcement')?.closest('main')).toBeNull();
      act(() => {
        vi.advanceTimersByTime(10_000);
      });
      expect(panel.find('announcement')?.textContent).toBe('');
      expect(panel.find('turn')?.textContent).toContain('The Trail Mug comes in Clay Red.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the answer itself out when the run ends, and makes each request a heading to jump between', async () => {
    panel = await mountPanel({ turns: [turn({ request: 'Find a red mug' })] });
    expect(panel.find('request')?.tagName).toBe('H2');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ request: 'Find a red mug', items: [{ kind: 'prose', text: 'The **Trail Mug** comes in Clay Red.' }], outcome: 'answer' }) });
    expect(panel.find('announcement')?.textContent).toBe('The Trail Mug comes in Clay Red.');
  });

  /** The model's state at a step is said once it lasts (1.5 s): time moves on that far. */
  const lastFor = () => act(() => void vi.advanceTimersByTime(1_600));

  it('tells a screen reader the model loads, by the quarter, then writes, then runs a tool', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    panel = await mountPanel({ engine: engineStatus({ state: 'idle' }) });
    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    const said: string[] = [];
    const hear = () => said.at(-1) !== panel!.find('announcement')?.textContent && said.push(panel!.find('announcement')?.textContent ?? '');
    for (const progress of [0, 0.1, 0.3, 0.35, 0.6, 0.99]) {
      await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progress, progressText: 'Fetching param cache[12/40]' }) });
      hear();
    }
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating' }) });
    hear();
    await lastFor();
    hear();
    // Checked first (a call may have to wait for the person): not yet said to run.
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'search_products', state: 'running' })] }) });
    hear();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'search_products', state: 'running', sent: true })] }) });
    hear();
    expect(said).toEqual([
      'Loading the model…',
      'Loading the model: 25 %.',
      'Loading the model: 50 %.',
      'Loading the model: 75 %.',
      'The model is writing…',
      'Running search_products…',
    ]);
    vi.useRealTimers();
  });

  it('says nothing of the model waiting or writing at a quick step, only the call it ran and the answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b' };
    panel = await mountPanel({ turns: [turn()] });
    const said: string[] = [];
    const hear = () => said.at(-1) !== panel!.find('announcement')?.textContent && said.push(panel!.find('announcement')?.textContent ?? '');
    for (let step = 0; step < 2; step += 1) {
      await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: Date.now() }) });
      hear();
      await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating' }) });
      hear();
      await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ callId: `call-${step}`, name: 'list_notes', state: 'running', sent: true })] }) });
      hear();
      await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ callId: `call-${step}`, name: 'list_notes', state: 'done' })] }) });
      hear();
    }
    // A slow one is said, each time anew.
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: Date.now() }) });
    await lastFor();
    hear();
    expect(said.filter(Boolean)).toEqual(['Running list_notes…', 'Waiting for the server…']);
    vi.useRealTimers();
  });

  it('tells a screen reader a call waits for approval first, never that it runs before the person allowed it', async () => {
    panel = await mountPanel({ turns: [turn()] });
    const said: string[] = [];
    const hear = () => said.at(-1) !== panel!.find('announcement')?.textContent && said.push(panel!.find('announcement')?.textContent ?? '');
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'checkout', state: 'running' })] }) });
    hear();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'checkout', state: 'waiting' })] }) });
    hear();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'checkout', state: 'running', sent: true })] }) });
    hear();
    expect(said.filter(Boolean)).toEqual(['checkout waits for your approval.', 'Running checkout…']);
  });

  it('tells a screen reader the request waits for another tab’s run before its model can load', async () => {
    panel = await mountPanel({ turns: [turn()] });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progressText: 'Waiting for the run in another tab to end…' }) });
    expect(panel.find('announcement')?.textContent).toBe('Waiting for the run in another tab to end…');
  });

  it('tells a screen reader the reply waits for another tab’s, then that the model writes once its turn comes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    panel = await mountPanel({ turns: [turn()] });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating', progressText: 'Waiting for the reply in another tab…' }) });
    expect(panel.find('announcement')?.textContent).toBe('Waiting for the reply in another tab…');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating' }) });
    await lastFor();
    expect(panel.find('announcement')?.textContent).toBe('The model is writing…');
    vi.useRealTimers();
  });

  it('tells a screen reader a reply that has brought nothing yet waits for the server, or reads the prompt, then that the model writes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    panel = await mountPanel({ turns: [turn()] });
    const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b' };
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: Date.now() }) });
    await lastFor();
    expect(panel.find('announcement')?.textContent).toBe('Waiting for the server…');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating' }) });
    await lastFor();
    expect(panel.find('announcement')?.textContent).toBe('The model is writing…');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating', firstWordSince: Date.now() }) });
    await lastFor();
    expect(panel.find('announcement')?.textContent).toBe('Reading the prompt…');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: Date.now(), thinking: true }) });
    await lastFor();
    expect(panel.find('announcement')?.textContent).toBe('The model is thinking…');
    vi.useRealTimers();
  });

  it('says nothing of a turn that had ended before it came into view (a tab switch, the panel opening)', async () => {
    panel = await mountPanel({ turns: [turn({ items: [toolCard({ name: 'checkout', state: 'done' })], outcome: 'answer' })] });
    expect(panel.find('turn')).not.toBeNull();
    expect(panel.find('announcement')?.textContent).toBe('');
  });

  it('shows no typing dots while a call waits for the person: the agent is not writing; they come back once answered', async () => {
    panel = await showCards([toolCard({ state: 'done' }), toolCard({ callId: 'call-2', state: 'waiting', approvalReason: 'consequential' })]);
    expect(panel.find('turn')?.querySelector('.typing')).toBeNull();
    // Nor is the turn busy then: some screen readers do not read into a busy region, where the question is.
    expect(panel.find('turn')?.getAttribute('aria-busy')).toBe('false');
    await act(() => panel!.find('approve-once')?.click());
    expect(panel.find('turn')?.querySelector('.typing')).not.toBeNull();
    expect(panel.find('turn')?.getAttribute('aria-busy')).toBe('true');
  });

  it('moves focus to the request box once an approval is answered, as the buttons go away', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'consequential' })]);
    const once = panel.find('approve-once') as HTMLButtonElement;
    once.focus();
    once.click();
    expect(document.activeElement).toBe(panel.find('chat-input'));
  });

  it('hands the focus from an answer on to the next call of the request that asks, unless something was typed meanwhile', async () => {
    const first = toolCard({ callId: 'call-1', name: 'add_to_cart', state: 'waiting', approvalReason: 'consequential' });
    const second = toolCard({ callId: 'call-2', name: 'checkout', state: 'waiting', approvalReason: 'consequential' });
    panel = await showCards([first]);
    // The first question of a request takes no focus: the person may be typing.
    expect(document.activeElement).not.toBe(panel.find('approve-once'));
    await act(() => panel!.find('approve-once')?.click());
    expect(document.activeElement).toBe(panel.find('chat-input'));
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ ...first, state: 'done', result: 'Added.' }, second] }) });
    // The question, not its yes: an Enter held down must not allow a call nobody read.
    const next = panel.findAll('tool-card')[1]!.querySelector<HTMLElement>('.approval')!;
    expect(document.activeElement).toBe(next);
    expect(next.getAttribute('aria-label')).toBe('Allow checkout?');

    // Typed in the request box after the answer: the next question leaves the focus there.
    const third = toolCard({ callId: 'call-3', name: 'pay', state: 'waiting', approvalReason: 'consequential' });
    await act(() => next.querySelector<HTMLButtonElement>('[data-testid="approve-once"]')!.click());
    const box = panel.find('chat-input') as HTMLTextAreaElement;
    box.value = 'and then';
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ ...first, state: 'done', result: 'Added.' }, { ...second, state: 'done', result: 'Ordered.' }, third] }) });
    expect(document.activeElement).toBe(box);
  });

  it('moves focus to the request box, and says why, when a question ends without the person: the page changed or removed its tool', async () => {
    panel = await showCards([toolCard({ name: 'delete_draft', state: 'waiting', approvalReason: 'not-read-only' })]);
    (panel.find('approve-once') as HTMLButtonElement).focus();
    const message = 'The page removed the tool delete_draft while you were being asked about this call, so it did not run.';
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'delete_draft', state: 'not-run', withdrawn: true, result: message })] }) });
    expect(panel.find('approve-once')).toBeNull();
    expect(panel.find('tool-card')?.querySelector('.tool-state')?.textContent).toBe('Not run');
    expect(document.activeElement).toBe(panel.find('chat-input'));
    expect(panel.find('announcement')?.textContent).toBe('delete_draft did not run: the page changed or removed it.');
  });

  it('says on a card that waited and ran without the person\'s answer here why it ran', async () => {
    panel = await showCards([toolCard({ name: 'add_note', state: 'waiting', approvalReason: 'not-read-only' })]);
    const because = 'the site was allowed while this question waited (in another tab, or in the options)';
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'add_note', state: 'done', result: 'Added.', allowedBecause: because })] }) });
    expect(panel.find('allowed-because')?.textContent).toBe(`No answer needed here any more: ${because}.`);
    expect(panel.find('approve-once')).toBeNull();
    // Said to a screen reader while it runs, as the buttons go.
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'add_note', state: 'running', sent: true, allowedBecause: because })] }) });
    expect(panel.find('announcement')?.textContent).toBe(`add_note runs without your answer here: ${because}.`);
  });

  it('names the site of a framed tool from another site on its card and to a screen reader, and offers no site-wide yes', async () => {
    panel = await showCards([toolCard({ name: 'archive_all_mail', state: 'waiting', approvalReason: 'other-site', siteChoice: false, origin: 'https://mail.example' })]);
    expect(panel.find('tool-origin')?.textContent).toBe('From https://mail.example, another site framed in this page.');
    expect(panel.find('announcement')?.textContent).toBe('archive_all_mail, from https://mail.example, waits for your approval.');
    panel.unmount();
    // Its words are that site's, and what draws nothing in them shows by its code.
    panel = await showCards([toolCard({ name: 'archive_all_mail', state: 'waiting', approvalReason: 'other-site', origin: 'https://mail.example', description: 'Archive \u202eliam\u202c all.' })]);
    expect(panel.find('tool-description')?.parentElement?.textContent).toBe('That site says: Archive \u202eliam\u202c all.');
    expect([...panel.find('tool-description')!.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code)).toEqual(['U+202E', 'U+202C']);
    expect(panel.find('approve-site')).toBeNull();
    // Answered, the card still says where the call's arguments went.
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ name: 'archive_all_mail', state: 'done', result: 'Archived.', origin: 'https://mail.example' })] }) });
    expect(panel.find('tool-origin')?.textContent).toBe('From https://mail.example, another site framed in this page.');
  });

  it('shows by its code what draws nothing in a tool name the model wrote, which no page offers', async () => {
    panel = await showCards([toolCard({ name: 'delete\u200bnotes', state: 'unknown', result: 'Unknown tool "delete\u200bnotes".' })]);
    const name = panel.find('tool-card')!.querySelector('.tool-name')!;
    expect(name.textContent).toBe('delete\u200bnotes');
    expect([...name.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code)).toEqual(['U+200B']);
  });

  it('offers no site-wide yes on a page without a web origin, where it could not be kept', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'not-read-only', siteChoice: false })]);
    expect(panel.find('approve-site')).toBeNull();
    expect(panel.find('approve-once')).not.toBeNull();
  });

  it('says why a tool asks after the run read strangers\' text, and offers no site-wide yes that could not answer it', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'read-untrusted' })]);
    expect(panel.find('approve-site')).toBeNull();
    expect(panel.find('approve-once')).not.toBeNull();
    expect(panel.container.textContent).toContain('this conversation has read text the page marks as written by others');
  });

  it("says which call's answer the request read, where it read it itself", async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'read-untrusted', untrustedRead: 'what “read_reviews” answered, text the page marks as written by others' })]);
    expect(panel.container.querySelector('.approval-reason')?.textContent).toBe(
      'This tool may change the page, and this request has read what “read_reviews” answered, text the page marks as written by others: that may be what asks for it.',
    );
  });

  it('never offers the site-wide choice for a consequential tool', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'consequential' })]);
    expect(panel.find('approve-site')).toBeNull();
    panel.find('approve-once')?.click();
    expect(panel.posted().at(-1)).toEqual({ type: 'approve', tabId, callId: 'call-1', decision: 'allow-once' });
  });

  it('sends deny, answers only once, and drops the buttons when the card moves on', async () => {
    panel = await showCards([toolCard({ state: 'waiting', approvalReason: 'consequential' })]);
    panel.find('deny')?.click();
    await panel.flush();
    expect((panel.find('approve-once') as HTMLButtonElement).disabled).toBe(true);
    panel.find('approve-once')?.click();
    const approvals = panel.posted().filter((message) => message.type === 'approve');
    expect(approvals).toEqual([{ type: 'approve', tabId, callId: 'call-1', decision: 'deny' }]);

    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [toolCard({ state: 'declined' })] }) });
    expect(panel.find('approve-once')).toBeNull();
    expect(panel.find('tool-card')?.dataset.state).toBe('declined');
  });
});
