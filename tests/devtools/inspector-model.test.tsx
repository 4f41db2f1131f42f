// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentPreview } from '@/components/inspector/agent-preview';
import { ChangeLog } from '@/components/inspector/change-log';
import { InspectorApp } from '@/components/inspector/inspector-app';
import { InspectorModel, type InspectorChannel } from '@/components/inspector/inspector-model';
import { typingPauseMs } from '@/components/shared/use-typing-pause';
import type { InspectorEvent, InspectorRequest } from '@/lib/messaging/inspector-protocol';
import type { PageTool, TabTools } from '@/lib/registry/types';
import { noAnswerOutput, toolOutputFromResult } from '@/lib/registry/tool-output-from-result';

/** A channel to a pretend background: the test plays the background's part. */
function fakeChannel() {
  const posted: InspectorRequest[] = [];
  let receive: (event: InspectorEvent) => void = () => {};
  let disconnect: () => void = () => {};
  const channel: InspectorChannel = {
    post: (request) => posted.push(request),
    onMessage: (listener) => (receive = listener),
    onDisconnect: (listener) => (disconnect = listener),
    disconnect: () => {},
  };
  return { channel, posted, send: (event: InspectorEvent) => receive(event), drop: () => disconnect() };
}

const tool = (name: string, overrides: Partial<PageTool> = {}): PageTool => ({
  name,
  description: `The ${name} tool, described at length.`,
  inputSchema: { type: 'object', properties: {} },
  origin: 'https://shop.example',
  frameId: 0,
  source: 'native',
  ...overrides,
});
const tabTools = (tools: PageTool[]): TabTools => ({ tabId: 5, url: 'https://shop.example/', origin: 'https://shop.example', tools, dropped: [], updatedAt: 1 });

/** The whole inspector, rendered, with a pretend background; the test's end takes it away. */
function showInspector() {
  const fake = fakeChannel();
  const model = new InspectorModel(5, () => fake.channel);
  model.open();
  const container = document.createElement('div');
  document.body.append(container);
  render(<InspectorApp model={model} copyText={async () => {}} />, container);
  shown.push(container);
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { fake, model, container, tick };
}
const shown: HTMLElement[] = [];
/** Waits until the filter has followed what was typed (it waits for typing to pause). */
const afterTyping = () => new Promise((resolve) => setTimeout(resolve, typingPauseMs + 10));

afterEach(() => {
  vi.useRealTimers();
  for (const container of shown.splice(0)) {
    render(null, container);
    container.remove();
  }
});

/** The agent preview of a tab whose tools `show` lists, with a request typed. */
function previewOfTab() {
  const fake = fakeChannel();
  const model = new InspectorModel(5, () => fake.channel);
  model.open();
  const container = document.createElement('div');
  document.body.append(container);
  const show = async (tools: PageTool[], query: string) => {
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(tools) });
    model.query.value = query;
    render(<AgentPreview model={model} />, container);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { container, show, model };
}

describe('the inspector model', () => {
  it('names the page by its address without the query string and fragment, whole only when pointed at', async () => {
    const { fake, container, tick } = showInspector();
    const address = () => container.querySelector<HTMLElement>('[data-testid="page-address"]')!;
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools([tool('add_to_cart')]), url: 'https://shop.example/cart' } });
    await tick();
    expect(address().textContent).toBe('https://shop.example/cart');
    expect(address().title).toBe('');
    // A session token in the address would fill the header, and show in a screenshot of the panel.
    const withToken = `https://shop.example/cart?session=${'a'.repeat(320)}#step-2`;
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools([tool('add_to_cart')]), url: withToken } });
    await tick();
    expect(address().textContent).toBe('https://shop.example/cart…');
    expect(address().title).toBe(withToken);
  });

  it('asks for the tab’s tools, then logs what changes', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    expect(fake.posted).toEqual([{ type: 'inspect', tabId: 5 }]);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('a')]) });
    fake.send({ type: 'tab-tools', tabId: 9, tabTools: tabTools([tool('other_tab')]) });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('b')]) });
    expect(model.tools.value.map((entry) => entry.name)).toEqual(['b']);
    expect(model.changes.value.map((change) => `${change.kind} ${change.name}`)).toEqual(['added b', 'removed a']);
  });

  it('logs a reload or a navigation as one line, then only what the new page offers differently', () => {
    vi.useFakeTimers();
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const page = (url: string, documentId: string, names: string[]): TabTools => ({ ...tabTools(names.map((name) => tool(name, { documentId }))), url });
    const log = () => model.changes.value.map((change) => `${change.kind} ${change.name}`);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/', 'one', ['search', 'add_to_cart']) });
    // A reload: the old page's tools go all at once, and the new page's come a moment later.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    vi.advanceTimersByTime(300);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/', 'two', ['search', 'add_to_cart', 'checkout']) });
    expect(log()).toEqual(['reloaded https://shop.example/', 'added checkout']);
    // A link to another page, whose tools replace these at once.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/cart', 'three', ['checkout']) });
    expect(log().slice(0, 3)).toEqual(['navigated https://shop.example/cart', 'removed search', 'removed add_to_cart']);
    // The page takes its tools away and no page follows: they are removed, a moment later.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/cart', 'three', []) });
    expect(log()).toHaveLength(5);
    vi.advanceTimersByTime(2_000);
    expect(log()[0]).toBe('removed checkout');
    // Taken away and given back by the same page: removed, then added, no page line.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/cart', 'three', ['checkout']) });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/cart', 'three', []) });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/cart', 'three', ['checkout']) });
    expect(log().slice(0, 3)).toEqual(['added checkout', 'removed checkout', 'added checkout']);
    // As the panel shows it: the page's line says what happened and where.
    const container = document.createElement('div');
    render(<ChangeLog changes={model.changes.value} />, container);
    const lines = [...container.querySelectorAll('li')].map((line) => line.textContent!.replace(/^\S+ (AM|PM)? ?/, ''));
    expect(lines.filter((line) => line.startsWith('page'))).toEqual(['page went to https://shop.example/cart', 'page reloaded: https://shop.example/']);
    render(null, container);
  });

  it('tells a reload or a navigation by the page\'s document, where a page without tools, or tools that come late, are on one side', () => {
    vi.useFakeTimers();
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const page = (url: string, documentId: string, names: string[]): TabTools => ({ ...tabTools(names.map((name) => tool(name, { documentId }))), url, documentId });
    const log = () => model.changes.value.map((change) => `${change.kind} ${change.name}`);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/', 'one', ['search']) });
    // To a page without tools: its listing names its document, and the old page's tools went with it.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/about', 'two', []) });
    expect(log()).toEqual(['navigated https://shop.example/about', 'removed search']);
    // From it to a page with tools.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/', 'three', ['search']) });
    expect(log().slice(0, 2)).toEqual(['navigated https://shop.example/', 'added search']);
    // A reload whose page gives its tools seconds later: removed when nothing came, then the reload and what it brought.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    vi.advanceTimersByTime(2_000);
    expect(log()[0]).toBe('removed search');
    vi.advanceTimersByTime(1_000);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: page('https://shop.example/', 'four', ['search']) });
    expect(log().slice(0, 2)).toEqual(['reloaded https://shop.example/', 'added search']);
  });

  it('runs a tool in the frame it was chosen from', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('pay'), tool('pay', { frameId: 3, origin: 'https://pay.example' })]) });
    model.runTool(tool('pay', { frameId: 3, origin: 'https://pay.example', documentId: 'DOC-3' }), {});
    expect(fake.posted.at(-1)).toMatchObject({ type: 'run-tool', name: 'pay', frameId: 3, documentId: 'DOC-3' });
  });

  it('keeps the run forms of tools no longer listed, up to the 50 last listed, and forgets older ones', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const listOnly = (name: string) => fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool(name)]) });
    // A page that swaps its one tool 51 times; the developer opened "Run" on each.
    for (let index = 0; index <= 50; index += 1) {
      listOnly(`step_${index}`);
      model.setRunFormOpen(tool(`step_${index}`), true);
    }
    listOnly('last_step');
    expect(model.runFormOf(tool('step_1')).open.value).toBe(true);
    expect(model.runFormOf(tool('step_50')).open.value).toBe(true);
    expect(model.runFormOf(tool('step_0')).open.value).toBe(false);
  });

  it('previews what the agent would be shown: its own list (one tool per name) ranked by its ranker', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('track_order'), tool('track_order', { frameId: 3, origin: 'https://pay.example' }), tool('add_to_cart')]) });
    model.query.value = 'track my order';
    expect(model.ranking.value.map(({ tool: shown }) => shown.name)).toEqual(['track_order', 'add_to_cart']);
    model.scorer.value = (tools) => tools.map((entry) => (entry.name === 'add_to_cart' ? 5 : 1));
    expect(model.ranking.value.map(({ tool: shown, score }) => `${shown.name} ${score}`)).toEqual(['track_order 1', 'add_to_cart 5']);
  });

  it('says where the agent is off on the page\'s site that it sees none of its tools, above what it would see were it on', async () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const container = document.createElement('div');
    document.body.append(container);
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('add_to_cart'), tool('track_order')]) });
    model.query.value = 'add two mugs';
    model.disabledSites.value = ['https://shop.example'];
    render(<AgentPreview model={model} />, container);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const off = 'The agent is off on shop.example, so it sees none of these tools. Were it on, it would see:';
    expect(container.querySelector('[data-testid="agent-off-note"]')?.textContent).toBe(off);
    // A request typed in Arabic or Hebrew reads in its own direction.
    expect(container.querySelector('.agent-query')?.getAttribute('dir')).toBe('auto');
    expect(container.querySelector('[data-testid="ranking-status"]')?.textContent).toMatch(/^The agent is off on shop\.example, so it sees none of these tools\. Were it on, it would see: All 2 tools fit/);
    model.disabledSites.value = ['https://elsewhere.example'];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.querySelector('[data-testid="agent-off-note"]')).toBeNull();
    render(null, container);
    container.remove();
  });

  it('says whether the preview is the best matches or every tool in the page\'s order, and marks the best match', async () => {
    const { container, show } = previewOfTab();
    const shop = [tool('search_products'), tool('add_to_cart', { description: 'Add a product to the cart.' }), tool('track_order')];
    await show(shop, 'add two mugs to the cart');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe("All 3 tools fit (the agent shows up to 8), so it sees them in the page's order.");
    expect(container.querySelector('li[data-best] .ranking-name')?.textContent).toBe('add_to_cart');
    // A description in Arabic or Hebrew takes its own direction, as on the tool's card.
    expect(container.querySelector('li[data-best] .ranking-description')?.getAttribute('dir')).toBe('auto');
    // A screen reader hears it too, as the request is typed.
    const status = container.querySelector('[data-testid="ranking-status"]');
    expect(status?.getAttribute('role')).toBe('status');
    expect(status?.textContent).toBe("All 3 tools fit (the agent shows up to 8), so it sees them in the page's order. Best match: add_to_cart.");
    expect([...container.querySelectorAll('.ranking-score')].map((score) => score.textContent)).toEqual(expect.arrayContaining([expect.stringMatching(/^score (\d+|\d+\.\d\d)$/)]));

    const many = Array.from({ length: 10 }, (_, index) => tool(`tool_${index}`));
    await show([...many, ...shop], 'add two mugs to the cart');
    // Only the tools that share a word with the request are matches: the others fill the list in the page's order.
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe("The 2 tools that match these words, best first, then 6 more in the page's order: 8 of 13 tools.");
    const matching = Array.from({ length: 10 }, (_, index) => tool(`add_to_cart_${index}`));
    await show([...matching, ...shop], 'add two mugs to the cart');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe('The 8 best matches of 13 tools, best first.');
    await show([...many, shop[1]!], 'add two mugs to the cart');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe("The one tool that matches these words, then 7 more in the page's order: 8 of 11 tools.");
    expect(container.querySelector('.ranking li .ranking-name')?.textContent).toBe('add_to_cart');
    // Words no tool has: the tools shown are not matches, and the note does not call them so.
    await show([...many, ...shop], 'hello');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe("No tool matches these words, so the agent sees the first 8 of the 13 tools, in the page's order.");
    expect(container.querySelector('li[data-best]')).toBeNull();
    // One tool is one.
    await show([shop[1]!], 'add two mugs to the cart');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe('The page offers one tool, and the agent sees it.');

    // Forms that list every country: the agent leaves out what would crowd the model's context, and so does the preview.
    const countries = Array.from({ length: 250 }, (_, index) => `Country number ${index}`);
    const addressForm = (name: string) => tool(name, { inputSchema: { type: 'object', properties: { country: { type: 'string', enum: countries } } } });
    await show([...shop, addressForm('billing_address'), addressForm('shipping_address')], 'add two mugs to the cart');
    expect(container.querySelector('[data-testid="ranking-note"]')?.textContent).toBe(
      "4 of the 5 tools, in the page's order. 1 more would crowd the default model's 4,096-token context, so the agent leaves it out.",
    );
    expect([...container.querySelectorAll('.agent-preview > ol.ranking .ranking-name')].map((name) => name.textContent)).toEqual(['search_products', 'add_to_cart', 'track_order', 'billing_address']);
    render(null, container);
    container.remove();
  });

  it('lists the tools the agent would not see, best first with their scores, and those the context had no room for', async () => {
    const { container, show, model } = previewOfTab();
    const notShown = () => container.querySelector('[data-testid="not-shown"]');
    const notShownRows = () => [...(notShown()?.querySelectorAll('li') ?? [])].map((row) => row.textContent);
    const shop = [tool('search_products'), tool('add_to_cart', { description: 'Add a product to the cart.' }), tool('track_order')];
    await show(shop, 'add two mugs to the cart');
    expect(notShown()).toBeNull();

    const many = Array.from({ length: 10 }, (_, index) => tool(`tool_${index}`));
    await show([...many, ...shop], 'add two mugs to the cart');
    expect(notShown()?.querySelector('summary')?.textContent).toBe('Not shown: 5 tools, best first');
    // Numbered on from the eight shown; the page's order among equals.
    expect(notShown()?.querySelector('ol')?.getAttribute('start')).toBe('9');
    expect(notShownRows()).toEqual(['tool_6 score 0', 'tool_7 score 0', 'tool_8 score 0', 'tool_9 score 0', 'search_products score 0']);
    await show([...many, ...shop], 'hello');
    expect(notShown()?.querySelector('summary')?.textContent).toBe("Not shown: 5 tools, in the page's order");
    expect(notShownRows()).toEqual(['tool_8 score 0', 'tool_9 score 0', 'search_products score 0', 'add_to_cart score 0', 'track_order score 0']);

    // A tool the ranking kept that the context had no room for says so.
    const countries = Array.from({ length: 250 }, (_, index) => `Country number ${index}`);
    const addressForm = (name: string) => tool(name, { inputSchema: { type: 'object', properties: { country: { type: 'string', enum: countries } } } });
    await show([...shop, addressForm('billing_address'), addressForm('shipping_address')], 'add two mugs to the cart');
    expect(notShownRows()).toEqual([expect.stringMatching(/^shipping_address score \S+ · no room in the context$/)]);
    // Where the person allows longer replies, the prompt keeps them more room, and the tools have less.
    model.replyTokens.value = 16_384;
    await show([...shop, addressForm('billing_address'), addressForm('shipping_address')], 'add two mugs to the cart');
    expect(notShownRows()).toEqual([expect.stringMatching(/^billing_address score \S+ · no room in the context$/), expect.stringMatching(/^shipping_address score \S+ · no room in the context$/)]);
    model.replyTokens.value = 1_024;

    // A page of 120 tools names the best 50 and counts the rest.
    await show(Array.from({ length: 120 }, (_, index) => tool(`tool_${index}`)), 'hello');
    expect(notShown()?.querySelector('summary')?.textContent).toBe("Not shown: 112 tools, in the page's order");
    expect(notShownRows()).toHaveLength(50);
    expect(notShown()?.querySelector('.ranking-note')?.textContent).toBe('And 62 more, none scored above 0.');
    render(null, container);
    container.remove();
  });

  it('drops a finished run’s result once its tool is listed from another document (the page navigated)', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const onPage = (documentId: string) => tool('search', { documentId });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('DOC-1')]) });
    model.runTool(onPage('DOC-1'), {});
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: 'from page one' }, durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('DOC-1')]) });
    expect(model.runs.value['0:search']).toMatchObject({ output: { text: 'from page one' } });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('DOC-2')]) });
    expect(model.runs.value['0:search']).toBeUndefined();
  });

  it('puts the focus at the top, not on the page body, when the request box of the preview goes with the page\'s last tool', async () => {
    const { fake, container, tick } = showInspector();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('search')]) });
    await tick();
    container.querySelector<HTMLInputElement>('.agent-query')!.focus();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([]) });
    await tick();
    await tick();
    expect(container.querySelector('.agent-query')).toBeNull();
    expect(document.activeElement?.tagName).toBe('H1');
    // Why the focus moved is said, as a screen reader would not learn it from the heading.
    expect(container.querySelector('[data-testid=card-left-status]')?.textContent).toBe('The page took its last tool away.');
  });

  it('blames a page that went on the run only just before: one that goes seconds after the run ended was left by the person', () => {
    vi.useFakeTimers();
    try {
      const fake = fakeChannel();
      const model = new InspectorModel(5, () => fake.channel);
      model.open();
      const price = tool('get_price', { documentId: 'DOC-1' });
      for (const [after, blamed] of [[300, true], [3_000, false]] as const) {
        fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([price]) });
        model.runTool(price, {});
        const runId = `run-${model.runs.value['0:get_price']!.runId.split('-')[1]}`;
        fake.send({ type: 'run-result', runId, output: { text: '{"price":12.5}' }, durationMs: 3 });
        vi.advanceTimersByTime(after);
        fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([]) });
        expect(model.leftRun.value !== undefined).toBe(blamed);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the result of a run that navigated or reloaded its page, whose card went with the page', async () => {
    const { fake, model, container, tick } = showInspector();
    const status = async () => {
      await tick();
      return container.querySelector('.left-run');
    };
    expect((await status())?.getAttribute('role')).toBe('status');
    const onPage = (name: string, documentId: string) => tool(name, { documentId });
    const noResult = (name: string) => toolOutputFromResult(name, null);
    const stillRunning = (name: string) => `${name} was still running when the page navigated or reloaded, so no result came back.`;

    // Reloaded: the same tool, listed from the new document.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('reload_page', 'DOC-1')]) });
    model.runTool(onPage('reload_page', 'DOC-1'), {});
    fake.send({ type: 'run-result', runId: 'run-1', output: noResult('reload_page'), durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('reload_page', 'DOC-2')]) });
    expect(model.runs.value['0:reload_page']).toBeUndefined();
    expect((await status())?.textContent).toBe(stillRunning('reload_page'));

    // Navigated away: the new page has other tools. A new run clears the old word.
    model.runTool(onPage('reload_page', 'DOC-2'), {});
    expect((await status())?.textContent).toBe('');
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('hard_nav', 'DOC-2')]) });
    model.runTool(onPage('hard_nav', 'DOC-2'), {});
    fake.send({ type: 'run-result', runId: 'run-3', output: noResult('hard_nav'), durationMs: 5 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('about_info', 'DOC-3')]) });
    expect((await status())?.textContent).toBe(stillRunning('hard_nav'));

    // A run whose tool is still there, in its document, stays on its card.
    model.runTool(onPage('about_info', 'DOC-3'), {});
    fake.send({ type: 'run-result', runId: 'run-4', output: { text: 'About us.' }, durationMs: 1 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('about_info', 'DOC-3')]) });
    expect((await status())?.textContent).toBe('');
    expect(model.runs.value['0:about_info']).toMatchObject({ output: { text: 'About us.' } });

    // The old page said goodbye (no tools) before the result came, and the new one offers none.
    model.runTool(onPage('about_info', 'DOC-3'), {});
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    fake.send({ type: 'run-result', runId: 'run-5', output: noResult('about_info'), durationMs: 2 });
    expect((await status())?.textContent).toBe(stillRunning('about_info'));
  });

  it('blames the frame, not the page, for a run whose frame went while the page stayed', async () => {
    const { fake, model, container, tick } = showInspector();
    const top = tool('search', { documentId: 'DOC-TOP' });
    const framed = tool('map_search', { frameId: 3, documentId: 'DOC-MAP' });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([top, framed]) });
    model.runTool(framed, {});
    fake.send({ type: 'run-result', runId: 'run-1', output: noAnswerOutput('map_search', 3), durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([top]) });
    await tick();
    expect(container.querySelector('.left-run')?.textContent).toBe(
      'map_search was still running when the frame that offered it navigated, reloaded or was removed, so no result came back.',
    );
  });

  it('shows what the page a form loaded gives, however its word and the new listing come', async () => {
    const { fake, model, container, tick } = showInspector();
    const navigated = toolOutputFromResult('place_order', null).text;
    const pageResult = { url: 'https://shop.example/placed?qty=2', data: '{"orderNumber":"C-42"}' };
    const form = (documentId: string) => tool('place_order', { source: 'declarative', documentId });

    // The form's page went: the word of the run, then what the new page gives, below it.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([form('DOC-1')]) });
    model.runTool(form('DOC-1'), {});
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: navigated }, durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    fake.send({ type: 'run-page-result', runId: 'run-1', pageResult });
    await tick();
    expect(container.querySelector('.left-run')?.textContent).toBe('place_order ran as the page changed: it loaded a page that gives its result (below).');
    const shown = container.querySelector('[data-testid="page-result"]');
    expect(shown?.closest('[role="status"]')).toBeNull();
    expect(shown?.textContent).toContain('https://shop.example/placed?qty=2');
    expect(shown?.querySelector('.run-text')?.textContent).toBe('{\n  "orderNumber": "C-42"\n}');

    // The page's result came before the new listing: the word of the run carries it.
    model.runTool(form('DOC-2'), {});
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([form('DOC-2')]) });
    fake.send({ type: 'run-result', runId: 'run-2', output: { text: navigated }, durationMs: 3 });
    fake.send({ type: 'run-page-result', runId: 'run-2', pageResult });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('track_order', { documentId: 'DOC-3' })]) });
    await tick();
    expect(model.leftRun.value).toMatchObject({ runId: 'run-2', pageResult });

    // A form that posts to a page with the same form: its card stays, and shows the page's result.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([form('DOC-4')]) });
    model.runTool(form('DOC-4'), {});
    fake.send({ type: 'run-result', runId: 'run-3', output: { text: navigated }, durationMs: 3 });
    fake.send({ type: 'run-page-result', runId: 'run-3', pageResult });
    expect(model.runs.value['0:place_order']).toMatchObject({ output: { text: navigated }, pageResult });
    // A word for a run nobody knows changes nothing.
    fake.send({ type: 'run-page-result', runId: 'run-9', pageResult: { url: 'https://elsewhere.example/', data: '{}' } });
    expect(model.runs.value['0:place_order']?.pageResult).toEqual(pageResult);
  });

  it('names the page a form loaded where that page gives no result: the form was sent', async () => {
    const { fake, model, container, tick } = showInspector();
    const navigated = toolOutputFromResult('open_door', null).text;
    const form = tool('open_door', { source: 'declarative', documentId: 'DOC-1' });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([form]) });
    model.runTool(form, {});
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: navigated }, durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    fake.send({ type: 'run-page-result', runId: 'run-1', pageResult: { url: 'https://doors.example/room?', title: 'The Reading Room' } });
    await tick();
    expect(container.querySelector('.left-run')?.textContent).toBe('open_door ran as the page changed: its form was sent, and loaded the page below.');
    const shown = container.querySelector('[data-testid="page-result"]');
    expect(shown?.textContent).toBe('The page it loaded, "The Reading Room", https://doors.example/room?, gives no result of its own: it shows how the form went.');
    expect(shown?.querySelector('.run-text')).toBeNull();
  });

  it("names the page the tab loaded while a script's tool ran, without saying the tool loaded it (a reload by the person looks the same)", async () => {
    const { fake, model, container, tick } = showInspector();
    const navigated = toolOutputFromResult('walk_to_room', null);
    const script = tool('walk_to_room', { source: 'native', documentId: 'DOC-1' });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([script]) });
    model.runTool(script, {});
    fake.send({ type: 'run-result', runId: 'run-1', output: navigated, durationMs: 3 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    fake.send({ type: 'run-page-result', runId: 'run-1', pageResult: { url: 'https://doors.example/room?from=hallway', title: 'The Reading Room' }, byScript: true });
    await tick();
    expect(container.querySelector('.left-run')?.textContent).toBe('walk_to_room was still running when the tab loaded the page below, so no result came back.');
    expect(container.querySelector('[data-testid="page-result"]')?.textContent).toBe(
      'The tab loaded "The Reading Room", https://doors.example/room?from=hallway, while the tool ran: the page may show how it went.',
    );
  });

  it('neither blames a run for a navigation the person made later, nor keeps the word once the page moves on', async () => {
    vi.useFakeTimers();
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const listing = (url: string, tools: PageTool[]) => fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools(tools), url } });
    listing('https://shop.example/', [tool('search', { documentId: 'DOC-1' })]);
    model.runTool(tool('search', { documentId: 'DOC-1' }), {});
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: 'Two mugs.' }, durationMs: 3 });
    // A minute later the person follows a link.
    vi.advanceTimersByTime(60_000);
    listing('https://shop.example/about', [tool('about_info', { documentId: 'DOC-2' })]);
    expect(model.leftRun.value).toBeUndefined();

    model.runTool(tool('about_info', { documentId: 'DOC-2' }), {});
    fake.send({ type: 'run-result', runId: 'run-2', output: toolOutputFromResult('about_info', null), durationMs: 3 });
    listing('https://shop.example/team', [tool('team', { documentId: 'DOC-3' })]);
    expect(model.leftRun.value).toMatchObject({ name: 'about_info' });
    vi.advanceTimersByTime(60_000);
    listing('https://shop.example/jobs', [tool('jobs', { documentId: 'DOC-4' })]);
    expect(model.leftRun.value).toBeUndefined();
  });

  it('keeps the word of a run that took its page away while the tab lists nothing between the two pages', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const listing = (url: string, tools: PageTool[]) => fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools(tools), url } });
    const goodbye = () => fake.send({ type: 'tab-tools', tabId: 5, tabTools: null });
    listing('https://shop.example/', [tool('open_cart', { documentId: 'DOC-1' })]);
    model.runTool(tool('open_cart', { documentId: 'DOC-1' }), {});
    // The result comes first, then the old page's goodbye, then the new page, which lists twice as it loads.
    fake.send({ type: 'run-result', runId: 'run-1', output: toolOutputFromResult('open_cart', null), durationMs: 3 });
    goodbye();
    expect(model.leftRun.value).toMatchObject({ name: 'open_cart' });
    listing('https://shop.example/cart', [tool('checkout', { documentId: 'DOC-2' })]);
    listing('https://shop.example/cart', [tool('checkout', { documentId: 'DOC-2' }), tool('empty_cart', { documentId: 'DOC-2' })]);
    expect(model.leftRun.value).toMatchObject({ name: 'open_cart', url: 'https://shop.example/cart' });

    // The page moves on once more: the word goes, even with a goodbye between.
    goodbye();
    listing('https://shop.example/pay', [tool('pay', { documentId: 'DOC-3' })]);
    expect(model.leftRun.value).toBeUndefined();
  });

  it('says the page took a tool away while it ran, not that the page changed, and lets the word go once the tool is back', async () => {
    const { fake, model, container, tick } = showInspector();
    const status = async () => {
      await tick();
      return container.querySelector('.left-run')?.textContent;
    };
    const onPage = (name: string) => tool(name, { documentId: 'DOC-1' });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('only_one'), onPage('view_cart')]) });
    model.runTool(onPage('only_one'), {});
    await tick();
    const focusIn = (name: string) => container.querySelector<HTMLElement>(`article[data-tool="${name}"] summary`)!.focus();
    focusIn('only_one');
    // The page unregisters it while it runs, then it answers. The focus goes to the top, not the page body.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('view_cart')]) });
    await tick();
    await tick();
    expect(document.activeElement?.tagName).toBe('H1');
    expect(container.querySelector('[data-testid=card-left-status]')?.textContent).toBe('The page took “only_one” away.');
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: 'released v2' }, durationMs: 3 });
    expect(await status()).toBe('The page took only_one away while it ran; it answered: released v2');
    // Registered again: its card is back with the result, and the word goes.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([onPage('only_one'), onPage('view_cart')]) });
    expect(await status()).toBe('');
    expect(model.runs.value['0:only_one']).toMatchObject({ output: { text: 'released v2' } });

    // A tool that takes itself away, the page's last, then answers: the page lists none at the same address.
    model.runTool(onPage('only_one'), {});
    await tick();
    focusIn('only_one');
    fake.send({ type: 'run-result', runId: 'run-2', output: { text: 'done, and I removed myself' }, durationMs: 2 });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([]) });
    expect(await status()).toBe('The page took only_one away while it ran; it answered: done, and I removed myself');
    // What it said has the focus, for a keyboard and a screen reader.
    await tick();
    expect(document.activeElement?.className).toBe('left-run');
    // No reload would bring them back: the page reported its list, so the extension runs there.
    expect(container.querySelector('.empty')?.textContent?.trim()).toBe('This tab offers no WebMCP tools.');
    // A developer is told how a page adds tools, and where a refused one is said.
    expect(container.querySelector('[data-testid="no-tools-hint"]')?.textContent).toBe(
      'A page adds tools with document.modelContext.registerTool(…) or a form marked <form toolname="…">; they show here as it adds them. One the browser itself refused to register (a name taken twice, a schema it cannot read) never reaches the extension: the page\'s Console says why.',
    );
    // Another page, never seen with tools, where the extension's content script does not run: one
    // open since before the extension came.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools([]), url: 'https://shop.example/old-tab' } });
    await tick();
    expect(container.querySelector('.empty')?.textContent?.trim()).toBe('This tab offers no WebMCP tools.');
    fake.send({ type: 'page-script', tabId: 5, answers: false });
    await tick();
    expect(container.querySelector('.empty')?.textContent).toContain('needs a reload first');
  });

  it('names the frame of a dropped tool only where it is not the page itself', async () => {
    const { fake, container, tick } = showInspector();
    const dropped = [
      { name: 'deep_tool', reason: 'the input schema cannot be used: it is nested too deeply', frameId: 0 },
      { name: 'framed_tool', reason: 'the name is too long', frameId: 3 },
    ];
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...tabTools([tool('view_cart')]), dropped } });
    await tick();
    expect([...container.querySelectorAll('.dropped li')].map((item) => item.textContent)).toEqual([
      'deep_tool: the input schema cannot be used: it is nested too deeply',
      'framed_tool: the name is too long (frame 3)',
    ]);
  });

  it('says under a result that the page changed the tool while it ran, and checks the result against the tool that ran', async () => {
    const { fake, model, container, tick } = showInspector();
    const outputSchema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
    const before = tool('get_price', { documentId: 'DOC-1', outputSchema });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([before]) });
    model.runTool(before, {});
    // The page swaps in another tool of the same name while it runs: it does something else now.
    const after = tool('get_price', { documentId: 'DOC-1', description: 'Empties the cart, then tells the price.' });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([after]) });
    fake.send({ type: 'run-result', runId: 'run-1', output: { text: '{"price": 12}' }, structuredContent: { price: 12 }, durationMs: 4 });
    await tick();
    const card = () => container.querySelector('article[data-tool="get_price"]')!;
    const runDetails = card().querySelector('details')!;
    runDetails.open = true;
    runDetails.dispatchEvent(new Event('toggle'));
    await tick();
    expect(card().querySelector('[data-testid="run-tool-changed"]')?.textContent).toBe(
      'The page changed get_price while this ran (what it does, its parameters or its hints): this is what the tool as it was before answered.',
    );
    // Checked against the output schema of the tool that ran, which the new one no longer has.
    expect(card().querySelector('.run-check')?.textContent).toBe("The result's structuredContent matches the tool's output schema.");
    // A run of the tool as it is now says nothing of the kind, nor once the page changes it after the run.
    model.runTool(after, {});
    fake.send({ type: 'run-result', runId: 'run-2', output: { text: 'Emptied.' }, durationMs: 2 });
    await tick();
    expect(card().querySelector('[data-testid="run-tool-changed"]')).toBeNull();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('get_price', { documentId: 'DOC-1', description: 'Tells the price, at last.' })]) });
    await tick();
    expect(card().querySelector('.run-text')?.textContent).toBe('Emptied.');
    // A long result, or description, scrolls, and is then a stop for Tab: each is named.
    expect(card().querySelector('.run-text')?.getAttribute('aria-label')).toBe('Result of get_price');
    expect(card().querySelector('.tool-description')?.getAttribute('aria-label')).toBe('Description of get_price');
    expect(card().querySelector('[data-testid="run-tool-changed"]')).toBeNull();
  });

  it('knows a single-page app that moved to a route without tools is the page seen with tools, not one to reload', async () => {
    const { fake, container, tick } = showInspector();
    const inDocument = (documentId: string, url: string, tools: PageTool[]): TabTools => ({ ...tabTools(tools), url, documentId });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: inDocument('doc-1', 'https://shop.example/', [tool('view_cart')]) });
    await tick();
    // history.pushState: the tab's address moves, the document stays, and the route has no tools.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: inDocument('doc-1', 'https://shop.example/orders/42', []) });
    await tick();
    expect(container.querySelector('.empty')?.textContent?.trim()).toBe('This tab offers no WebMCP tools.');
    // A new document, even at an address seen with tools, was not: where its content script runs,
    // it simply offers none; where it does not, a reload would bring it.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: inDocument('doc-2', 'https://shop.example/', []) });
    fake.send({ type: 'page-script', tabId: 5, answers: true });
    await tick();
    expect(container.querySelector('.empty')?.textContent?.trim()).toBe('This tab offers no WebMCP tools.');
    fake.send({ type: 'page-script', tabId: 5, answers: false });
    await tick();
    expect(container.querySelector('.empty')?.textContent).toContain('needs a reload first');
    // The answer was of that page: the next one is asked again.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: inDocument('doc-3', 'https://shop.example/', []) });
    await tick();
    expect(container.querySelector('.empty')?.textContent?.trim()).toBe('This tab offers no WebMCP tools.');
    // One whose every tool the extension refused was read: a reload would change nothing.
    fake.send({ type: 'page-script', tabId: 5, answers: false });
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: { ...inDocument('doc-3', 'https://shop.example/', []), dropped: [{ name: 'بحث', reason: 'the name…', frameId: 0 }] } });
    await tick();
    expect(container.querySelector('.empty')?.textContent).not.toContain('needs a reload first');
  });

  it('reconnects after the service worker restarts, and sends what was asked meanwhile', () => {
    vi.useFakeTimers();
    const channels = [fakeChannel(), fakeChannel()];
    let opened = 0;
    const model = new InspectorModel(5, () => channels[opened++]!.channel);
    model.open();
    channels[0]!.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('a')]) });
    model.runTool(tool('a'), {});
    channels[0]!.drop();
    expect(model.runs.value['0:a']).toMatchObject({ running: false, output: { isError: true } });
    expect(model.connected.value).toBe(false);
    model.runTool(tool('a'), { again: true });
    vi.advanceTimersByTime(200);
    expect(model.connected.value).toBe(true);
    expect(channels[1]!.posted).toEqual([
      { type: 'inspect', tabId: 5 },
      { type: 'run-tool', runId: 'run-2', name: 'a', args: { again: true }, timeoutMs: 30_000, frameId: 0 },
    ]);
    channels[1]!.send({ type: 'run-result', runId: 'run-2', output: { text: 'done' }, durationMs: 4 });
    expect(model.runs.value['0:a']).toEqual({
      runId: 'run-2',
      name: 'a',
      ran: tool('a'),
      frameId: 0,
      url: 'https://shop.example/',
      running: false,
      finished: { at: expect.any(Number), listing: 1 },
      output: { text: 'done' },
      durationMs: 4,
    });
  });
});

describe('the inspector page', () => {
  it('narrows a long list of tools by words of their name or description, or to those with notes', async () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const names = ['add_task', 'close_task', 'comment_on_task', 'list_projects', 'open_project', 'rename_project', 'search', 'assign_user', 'invite_user', 'save_pdf'];
    // One description too short to tell the model anything: a lint note. One in full-width letters.
    const described = (name: string) => (name === 'search' ? { description: 'Search.' } : name === 'save_pdf' ? { description: '開いている文書をＰＤＦで保存する。ファイル名を指定できます。' } : {});
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(names.map((name) => tool(name, described(name)))) });
    const container = document.createElement('div');
    document.body.append(container);
    render(<InspectorApp model={model} copyText={async () => {}} />, container);
    const cards = () => [...container.querySelectorAll('article.tool')].map((card) => card.getAttribute('data-tool'));
    const filter = container.querySelector<HTMLInputElement>('[data-testid=tool-filter]')!;
    filter.value = 'PROJECT';
    filter.dispatchEvent(new Event('input'));
    await afterTyping();
    expect(cards()).toEqual(['list_projects', 'open_project', 'rename_project']);
    expect(container.querySelector('[data-testid=tool-filter-count]')?.textContent).toBe('3 of 10 tools shown');
    // Words every tool holds: the count says the filter took, though it hides none.
    filter.value = 'a';
    filter.dispatchEvent(new Event('input'));
    await afterTyping();
    expect(cards()).toHaveLength(10);
    expect(container.querySelector('[data-testid=tool-filter-count]')?.textContent).toBe('All 10 tools match');
    // Full-width letters, as a Japanese input method types them, read as the plain ones, typed or in a tool.
    filter.value = 'ｐｒｏｊｅｃｔ';
    filter.dispatchEvent(new Event('input'));
    await afterTyping();
    expect(cards()).toEqual(['list_projects', 'open_project', 'rename_project']);
    for (const typed of ['ＰＤＦで', 'pdfで']) {
      filter.value = typed;
      filter.dispatchEvent(new Event('input'));
      await afterTyping();
      expect(cards(), typed).toEqual(['save_pdf']);
    }
    filter.value = '';
    filter.dispatchEvent(new Event('input'));
    await afterTyping();
    const onlyNotes = container.querySelector<HTMLInputElement>('[data-testid=only-with-notes]')!;
    onlyNotes.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cards()).toEqual(['search']);
    // The log of changes comes before the list, folded once it is long.
    const more = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => tool(`extra_${letter}`, { description: 'Short.' }));
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([...names.map((name) => tool(name, described(name))), ...more]) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const log = container.querySelector('section.change-log')!;
    expect(log.compareDocumentPosition(container.querySelector('article.tool')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(log.querySelector('details')?.open).toBe(false);
    expect(log.querySelector('summary')?.textContent).toBe('6 changes to the list since the inspector opened');
    render(null, container);
    container.remove();
  });

  it('follows the filter once typing pauses, showing every key at once', async () => {
    const { fake, container, tick } = showInspector();
    const names = ['add_task', 'close_task', 'comment_on_task', 'list_projects', 'open_project', 'rename_project', 'search', 'assign_user', 'invite_user'];
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(names.map((name) => tool(name))) });
    await tick();
    const cards = () => container.querySelectorAll('article.tool').length;
    const filter = container.querySelector<HTMLInputElement>('[data-testid=tool-filter]')!;
    for (const typed of ['p', 'pr', 'pro']) {
      filter.value = typed;
      filter.dispatchEvent(new Event('input'));
      await tick();
    }
    // A run of keys redraws the list once, after the last of them, not at each.
    expect(filter.value).toBe('pro');
    expect(cards()).toBe(9);
    await vi.waitFor(() => expect(cards()).toBe(3));
    expect(container.querySelector<HTMLInputElement>('[data-testid=tool-filter]')?.value).toBe('pro');
  });

  it('keeps the filter box and what was typed when the list gets short before typing pauses', async () => {
    const { fake, model, container, tick } = showInspector();
    const nine = Array.from({ length: 9 }, (_, index) => tool(`tool_${index}`));
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(nine) });
    await tick();
    const input = container.querySelector<HTMLInputElement>('[data-testid=tool-filter]')!;
    input.focus();
    input.value = 'tool_3';
    input.dispatchEvent(new Event('input'));
    // The page takes a tool away while the person types: eight need no filter, unless one is typed.
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(nine.slice(0, 8)) });
    await afterTyping();
    expect(model.filter.value).toBe('tool_3');
    expect(container.querySelector('[data-testid=tool-filter]')).toBe(input);
    expect(document.activeElement).toBe(input);
    expect([...container.querySelectorAll('article.tool')].map((card) => card.getAttribute('data-tool'))).toEqual(['tool_3']);
  });

  it('draws a long list of tools a pass at a time, leaving the cards drawn in place', async () => {
    const { fake, container, tick } = showInspector();
    const many = Array.from({ length: 600 }, (_, index) => tool(`tool_${index}`));
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(many) });
    await tick();
    const cards = () => container.querySelectorAll('article.tool');
    const first = cards()[0];
    expect(cards().length).toBeGreaterThan(0);
    expect(cards().length).toBeLessThan(600);
    // The count says the whole list at once.
    expect(container.querySelector('.tool-count')?.textContent).toBe('600 tools');
    await vi.waitFor(() => expect(cards()).toHaveLength(600), { timeout: 10_000 });
    expect(cards()[0]).toBe(first);
    expect([...cards()].map((card) => card.getAttribute('data-tool'))).toEqual(many.map((each) => each.name));
  });

  it('keeps the filter in sight while its words still hide tools, after the list gets short', async () => {
    const { fake, container, tick } = showInspector();
    const list = (names: string[]) => fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(names.map((name) => tool(name))) });
    list(['search', 'open', 'add_to_cart', 'checkout', 'track_order', 'rate_product', 'compare', 'wish_list', 'return_item', 'ask_help', 'gift_card']);
    await tick();
    const filter = () => container.querySelector<HTMLInputElement>('[data-testid=tool-filter]');
    filter()!.value = 'cart';
    filter()!.dispatchEvent(new Event('input'));
    await afterTyping();
    list(['search', 'open', 'add_to_cart', 'checkout']);
    await tick();
    const cards = () => [...container.querySelectorAll('article.tool')].map((card) => card.getAttribute('data-tool'));
    expect(cards()).toEqual(['add_to_cart']);
    expect(filter()?.value).toBe('cart');
    expect(container.querySelector('[data-testid=tool-filter-count]')?.textContent).toBe('1 of 4 tools shown');
    filter()!.value = '';
    filter()!.dispatchEvent(new Event('input'));
    await afterTyping();
    expect(cards()).toEqual(['search', 'open', 'add_to_cart', 'checkout']);
    // Cleared, a short list needs no filter.
    expect(filter()).toBeNull();
  });

  it('keeps "only with notes" in sight while ticked, after the page fixed the last tool with notes', async () => {
    const { fake, container, tick } = showInspector();
    const names = ['add_task', 'close_task', 'comment_on_task', 'list_projects', 'open_project', 'rename_project', 'search', 'assign_user', 'invite_user'];
    const list = (short: string[]) =>
      fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools(names.map((name) => tool(name, short.includes(name) ? { description: 'Search.' } : {}))) });
    list(['search']);
    await tick();
    container.querySelector<HTMLInputElement>('[data-testid=only-with-notes]')!.click();
    await tick();
    list([]);
    await tick();
    const onlyNotes = container.querySelector<HTMLInputElement>('[data-testid=only-with-notes]');
    expect(container.querySelectorAll('article.tool')).toHaveLength(0);
    expect(onlyNotes?.checked).toBe(true);
    expect(onlyNotes?.parentElement?.textContent).toBe('Only tools with notes (none has any now)');
    expect(container.querySelector('[data-testid=tool-filter-count]')?.textContent).toBe('0 of 9 tools shown');
    onlyNotes!.click();
    await tick();
    expect(container.querySelectorAll('article.tool')).toHaveLength(9);
    expect(container.querySelector('[data-testid=only-with-notes]')).toBeNull();
  });

  it('shows on the tool\'s card where its schema is not JSON Schema', async () => {
    const { fake, container, tick } = showInspector();
    const people = { type: 'integr', description: 'How many people' };
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('book_table', { inputSchema: { type: 'object', properties: { people } } })]) });
    await tick();
    const card = container.querySelector('article[data-tool=book_table]')!;
    expect([...card.querySelectorAll('.finding')].map((finding) => finding.textContent)).toEqual([
      'Warning: The type of "people" is "integr", not a JSON Schema type (string, number, integer, boolean, object, array, null): the model is shown it as written.',
    ]);
  });

  it('renders everything a page provides as text, never as HTML', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    const hostile = '<img src=x onerror="window.pwned=1"><b>bold</b>\u202e';
    fake.send({
      type: 'tab-tools',
      tabId: 5,
      tabTools: { ...tabTools([tool('evil', { title: hostile, description: hostile })]), dropped: [{ name: hostile, reason: hostile, frameId: 0 }] },
    });
    const root = document.createElement('div');
    render(<InspectorApp model={model} copyText={async () => {}} />, root);
    expect(root.querySelector('img, b')).toBeNull();
    expect(root.querySelector('.tool-description')?.textContent).toBe(hostile);
    // A direction override in the page's words shows by its code, in the title as in the description.
    expect([...root.querySelectorAll('.tool-title .hidden-character, .tool-description .hidden-character')].map((mark) => mark.getAttribute('data-code'))).toEqual(['U+202E', 'U+202E']);
    // The page's words take their direction from their own first letters (Arabic, Hebrew).
    expect([root.querySelector('.tool-description')?.getAttribute('dir'), root.querySelector('.tool-title')?.getAttribute('dir')]).toEqual(['auto', 'auto']);
    expect(root.querySelector('.dropped-name')?.textContent).toBe(hostile);
    // Nor in a dropped tool's name and reason, where it would turn the panel's own words after it around.
    expect([...root.querySelectorAll('.dropped-name .hidden-character, .dropped-reason .hidden-character')].map((mark) => mark.getAttribute('data-code'))).toEqual(['U+202E', 'U+202E']);
    expect(root.querySelector('.tool-count')?.textContent).toBe('1 tool');
  });

  it('shows a direction override in a field\'s name and description by its code, and in a list\'s choices written as its code', async () => {
    const { fake, container, tick } = showInspector();
    const overridden = 'k\u202eyek';
    fake.send({
      type: 'tab-tools',
      tabId: 5,
      tabTools: tabTools([tool('pick', { inputSchema: { type: 'object', properties: { [overridden]: { type: 'string', description: `the ${overridden}`, enum: [`a\u202eb`, 'plain'] }, 'x\u202ey': { type: 'string' } } } })]),
    });
    await tick();
    // A finding that quotes the name ("has no description") turns none of its own words around.
    expect(container.querySelectorAll('.finding .hidden-character').length).toBeGreaterThan(0);
    const summary = [...container.querySelectorAll('summary')].find((element) => element.textContent?.startsWith('Run'));
    summary?.click();
    await tick();
    const field = container.querySelector('.field')!;
    expect([...field.querySelectorAll('label .hidden-character, .field-description .hidden-character')].map((mark) => mark.getAttribute('data-code'))).toEqual(['U+202E', 'U+202E']);
    expect([...field.querySelectorAll('option')].map((option) => option.textContent)).toContain('a⟨U+202E⟩b');
  });

  it('never shows a timeout that runs do not use: out of range it is brought into 1 to 600 s, with a note', async () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([]) });
    const root = document.createElement('div');
    render(<InspectorApp model={model} copyText={async () => {}} />, root);
    const input = root.querySelector<HTMLInputElement>('.timeout input')!;
    /** Types `text`, then leaves the field when `leave` (the browser's "change"). */
    const type = async (text: string, leave = true) => {
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      if (leave) input.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { shown: input.value, used: model.timeoutSeconds.value, note: root.querySelector('.timeout-note')?.textContent ?? '' };
    };
    expect(await type('45', false)).toEqual({ shown: '45', used: 45, note: '' });
    expect(await type('0')).toEqual({ shown: '1', used: 1, note: 'A timeout is 1 to 600 s: set to 1 s.' });
    expect(await type('900')).toEqual({ shown: '600', used: 600, note: 'A timeout is 1 to 600 s: set to 600 s.' });
    expect(await type('')).toEqual({ shown: '600', used: 600, note: 'A timeout is 1 to 600 s: still 600 s.' });
    expect(await type('20')).toEqual({ shown: '20', used: 20, note: '' });
    expect(input.max).toBe('600');
    model.timeoutSeconds.value = 900;
    model.runTool(tool('a'), {});
    expect(fake.posted.at(-1)).toMatchObject({ type: 'run-tool', timeoutMs: 600_000 });
  });
});

describe('the change log past what it keeps', () => {
  it('counts every change, and says that only the latest are listed', () => {
    const fake = fakeChannel();
    const model = new InspectorModel(5, () => fake.channel);
    model.open();
    // A single-page app that swaps one view tool for another 150 times: an add and a removal each.
    for (let index = 0; index <= 150; index += 1) fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool('search'), tool(`view_${index}`)]) });
    expect(model.changes.value).toHaveLength(200);
    expect(model.changeCount.value).toBe(300);
    const container = document.createElement('div');
    render(<ChangeLog changes={model.changes.value} total={model.changeCount.value} />, container);
    expect(container.querySelector('summary')?.textContent).toBe('300 changes to the list since the inspector opened; the latest 200 are listed');
    render(null, container);
  });
});
