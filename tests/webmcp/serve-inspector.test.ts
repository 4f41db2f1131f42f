import { beforeEach, describe, expect, it, vi } from 'vitest';
import { inspectorEventSchema, type InspectorEvent, type InspectorRequest } from '@/lib/messaging/inspector-protocol';
import type { ToolCall, ToolCallReply } from '@/lib/messaging/protocol';
import { checkToolResult } from '@/lib/devtools/check-tool-result';
import { runToolCall } from '@/lib/webmcp/run-tool-call';
import type { Channel } from '@/lib/messaging/port-channel';
import { sendToContent } from '@/lib/messaging/runtime-messaging';
import { serveInspector } from '@/lib/registry/serve-inspector';
import { TabToolRegistry } from '@/lib/registry/tab-tool-registry';

vi.mock('@/lib/messaging/runtime-messaging', () => ({ sendToContent: vi.fn() }));
const send = vi.mocked(sendToContent);

const outputSchema = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
const result = JSON.stringify({ content: [{ type: 'text', text: 'The cart comes to 12 €.' }], structuredContent: { total: 12 } });

/** The inspector's end of its channel: the test plays the panel. */
function inspectorChannel() {
  const events: InspectorEvent[] = [];
  let receive: (request: InspectorRequest) => void = () => {};
  const channel: Channel<InspectorEvent, InspectorRequest> = { post: (event) => events.push(event), onMessage: (listener) => (receive = listener), onDisconnect: () => {}, disconnect: () => {} };
  return { channel, events, ask: (request: InspectorRequest) => receive(request) };
}

let registry: TabToolRegistry;
beforeEach(async () => {
  send.mockReset();
  send.mockImplementation(((_tabId: number, type: string) => Promise.resolve(type === 'tool-execute' ? ({ status: 'ok', result } satisfies ToolCallReply) : null)) as never);
  registry = new TabToolRegistry({ load: async () => new Map(), save: async () => {} });
  const tool = (name: string, more = {}) => ({ name, description: 'A tool.', inputSchema: { type: 'object' }, origin: '', source: 'native', ...more });
  await registry.report({ tabId: 3, frameId: 0, url: 'https://shop.example/', origin: 'https://shop.example' }, { url: '', tools: [tool('cart_total', { outputSchema }), tool('cart_text')], dropped: [] });
});

describe('serveInspector: a tab that lists no tools', () => {
  it('asks whether the extension runs in its page, and says so after the listing; not for a tab with tools', async () => {
    const { channel, events, ask } = inspectorChannel();
    const pageScriptAnswers = vi.fn(async (tabId: number) => tabId !== 8);
    serveInspector(registry, channel, { pageScriptAnswers });
    ask({ type: 'inspect', tabId: 8 });
    await vi.waitFor(() => expect(events).toEqual([{ type: 'tab-tools', tabId: 8, tabTools: null }, { type: 'page-script', tabId: 8, answers: false }]));
    for (const event of events) expect(inspectorEventSchema().parse(event)).toEqual(event);
    ask({ type: 'inspect', tabId: 3 });
    await vi.waitFor(() => expect(events.at(-1)).toMatchObject({ type: 'tab-tools', tabId: 3 }));
    expect(pageScriptAnswers).toHaveBeenCalledTimes(1);
  });

  it('tells no answer about a page the tab has left, nor about a tab no longer inspected', async () => {
    const { channel, events, ask } = inspectorChannel();
    const answers: ((answers: boolean) => void)[] = [];
    serveInspector(registry, channel, { pageScriptAnswers: () => new Promise((resolve) => answers.push(resolve)) });
    ask({ type: 'inspect', tabId: 8 });
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    // The tab's next page reports tools before the answer about the one before comes.
    await registry.report({ tabId: 8, frameId: 0, url: 'https://shop.example/', origin: 'https://shop.example' }, {
      url: '',
      tools: [{ name: 'cart_text', description: 'A tool.', inputSchema: { type: 'object' }, origin: '', source: 'native' }],
      dropped: [],
    });
    await vi.waitFor(() => expect(events).toHaveLength(2));
    answers[0]!(false);
    // An empty listing was reported by the page's script: nothing to ask.
    await registry.report({ tabId: 8, frameId: 0, url: 'https://shop.example/empty', origin: 'https://shop.example' }, { url: '', tools: [], dropped: [] });
    await vi.waitFor(() => expect(events).toHaveLength(3));
    expect(answers).toHaveLength(1);
    // And an answer about a tab the inspector left: the tab's listing went (its page left).
    await registry.removeTab(8);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    ask({ type: 'inspect', tabId: 3 });
    await vi.waitFor(() => expect(events.at(-1)).toMatchObject({ type: 'tab-tools', tabId: 3 }));
    answers[1]!(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events.map((event) => event.type)).toEqual(['tab-tools', 'tab-tools', 'tab-tools', 'tab-tools', 'tab-tools']);
  });
});

describe('serveInspector: a run by hand', () => {
  it('passes an MCP-style result’s structuredContent on with the output, only for a tool with an output schema to check it against', async () => {
    const { channel, events, ask } = inspectorChannel();
    serveInspector(registry, channel);
    ask({ type: 'inspect', tabId: 3 });
    ask({ type: 'run-tool', runId: 'run-1', name: 'cart_total', args: {} });
    ask({ type: 'run-tool', runId: 'run-2', name: 'cart_text', args: {} });
    await vi.waitFor(() => expect(events.filter((event) => event.type === 'run-result')).toHaveLength(2));
    const results = events.filter((event) => event.type === 'run-result');
    expect(results.find((event) => event.runId === 'run-1')).toMatchObject({ output: { text: 'The cart comes to 12 €.' }, structuredContent: { total: 12 } });
    expect(results.find((event) => event.runId === 'run-2')).not.toHaveProperty('structuredContent');
    for (const event of results) expect(inspectorEventSchema().parse(event)).toEqual(event);
  });

  it('says a result too long to carry lost its structuredContent on the way, so the check says so instead of blaming the page', async () => {
    const orders = Array.from({ length: 30_000 }, (_, index) => ({ id: `order-${index}`, total: index, note: 'x'.repeat(20) }));
    const page = JSON.stringify({ content: [{ type: 'text', text: 'Your orders.' }], structuredContent: { total: 12, orders } });
    const source = { list: async () => ({ offered: [], refused: [] }), watch: () => () => {}, execute: async () => page };
    // The content script's own reply, as it carries the page's result.
    send.mockImplementation(((_tabId: number, type: string, payload: ToolCall) =>
      type === 'tool-execute' ? runToolCall({ sourceOf: async () => source }, payload, new Map()) : Promise.resolve(null)) as never);
    const { channel, events, ask } = inspectorChannel();
    serveInspector(registry, channel);
    ask({ type: 'inspect', tabId: 3 });
    ask({ type: 'run-tool', runId: 'run-1', name: 'cart_total', args: {} });
    await vi.waitFor(() => expect(events.some((event) => event.type === 'run-result')).toBe(true));
    const event = events.find((candidate) => candidate.type === 'run-result')!;
    expect(inspectorEventSchema().parse(event)).toEqual(event);
    if (event.type !== 'run-result') throw new Error('not a result');
    expect(event.output).toEqual({ text: 'Your orders.' });
    expect(checkToolResult({ name: 'cart_total', outputSchema }, event.output, event.structuredContent, event.structuredContentDropped)?.message).toBe(
      "The result was too long to carry whole, so it was not checked against the tool's output schema.",
    );
  });
});

describe('serveInspector: the service worker while a tool runs by hand', () => {
  /** A page whose tool answers only when the test says so. */
  function slowPage() {
    let answer: (reply: ToolCallReply) => void = () => {};
    send.mockImplementation(((_tabId: number, type: string) =>
      type === 'tool-execute' ? new Promise<ToolCallReply>((resolve) => (answer = resolve)) : Promise.resolve(null)) as never);
    return { answer: (reply: ToolCallReply) => answer(reply) };
  }
  function awakeCounter() {
    const held = { now: 0 };
    return { held, keepAwake: () => ((held.now += 1), () => void (held.now -= 1)) };
  }

  it('is held awake until the tool answers, a tool may take minutes with no message meanwhile', async () => {
    const page = slowPage();
    const { held, keepAwake } = awakeCounter();
    const { channel, events, ask } = inspectorChannel();
    serveInspector(registry, channel, { keepAwake });
    ask({ type: 'inspect', tabId: 3 });
    ask({ type: 'run-tool', runId: 'run-1', name: 'cart_text', args: {} });
    await vi.waitFor(() => expect(send).toHaveBeenCalledWith(3, 'tool-execute', expect.anything(), expect.anything()));
    expect(held.now).toBe(1);
    page.answer({ status: 'ok', result });
    await vi.waitFor(() => expect(events.some((event) => event.type === 'run-result')).toBe(true));
    expect(held.now).toBe(0);
  });

  it('says a call that could not be sent failed on its way, not that someone stopped it', async () => {
    const { channel, events, ask } = inspectorChannel();
    serveInspector(registry, channel, { keepAwake: () => () => {} });
    ask({ type: 'inspect', tabId: 3 });
    await vi.waitFor(() => expect(events.some((event) => event.type === 'tab-tools')).toBe(true));
    // The run reads the tab's tools, then fails before its call goes out (arguments nested past
    // what a message carries, in the browser).
    const read = registry.get.bind(registry);
    vi.spyOn(registry, 'get')
      .mockImplementationOnce(read)
      .mockImplementationOnce(() => Promise.reject(new RangeError('Maximum call stack size exceeded')));
    ask({ type: 'run-tool', runId: 'run-1', name: 'cart_text', args: {} });
    await vi.waitFor(() => expect(events.some((event) => event.type === 'run-result')).toBe(true));
    expect(events.find((event) => event.type === 'run-result')).toMatchObject({
      output: { text: 'The call did not reach the tool: Maximum call stack size exceeded', isError: true },
    });
  });

  it('is let go when a run by hand is stopped, or the inspector closes', async () => {
    slowPage();
    const { held, keepAwake } = awakeCounter();
    const { channel, events, ask } = inspectorChannel();
    let disconnect = () => {};
    channel.onDisconnect = (listener) => void (disconnect = listener);
    serveInspector(registry, channel, { keepAwake });
    ask({ type: 'inspect', tabId: 3 });
    ask({ type: 'run-tool', runId: 'run-1', name: 'cart_text', args: {} });
    ask({ type: 'run-tool', runId: 'run-2', name: 'cart_text', args: {} });
    await vi.waitFor(() => expect(held.now).toBe(2));
    ask({ type: 'cancel-run', runId: 'run-1' });
    await vi.waitFor(() => expect(events.filter((event) => event.type === 'run-result')).toHaveLength(1));
    expect(held.now).toBe(1);
    disconnect();
    await vi.waitFor(() => expect(held.now).toBe(0));
  });
});
