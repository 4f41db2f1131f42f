import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type LanguageModel, type ModelChunk } from '@webmcp-agents/local-agent';
import { replyCutOff } from '@/lib/engines/engine';
import { createReplayEngine } from '@/lib/engines/replay-engine';
import { replayTrace, type ReplayCall } from '@/lib/traces/replay-trace';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import { recordShopRun } from './support/record-run';
import { createShopPage, type ShopPageOptions } from './support/shop-page';
import { openTestStore } from './support/trace-stores';

const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;

/** Open the mug (read-only), add two to the cart (changes the page: asks first), answer. */
const replies = [call('open_product', { slug: 'enamel-mug' }), `In stock.\n${call('add_to_cart', { qty: 2 })}`, 'Two mugs are in your cart.'];

async function recordThenReplay(changed: ShopPageOptions, allow = true, askEveryCall = false) {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await recordShopRun({ recorder, runId: 'recorded', replies });
  await recorder.flush();
  const trace = (await store.getTrace('recorded'))!;
  const page = createShopPage(changed);
  const asked: ReplayCall[] = [];
  const events: AgentEvent[] = [];
  const report = await replayTrace({
    trace,
    getTools: page.tools,
    executeTool: (parsed) => page.executeTool(parsed.name, parsed.arguments),
    confirm: async (pending) => (asked.push(pending), allow),
    askEveryCall,
    onEvent: (event) => events.push(event),
  });
  return { trace, report, asked, page, events };
}

describe('replayTrace', () => {
  it('runs the tools for real and matches an unchanged page, asking only before the tool that is not read-only', async () => {
    const { report, asked, page } = await recordThenReplay({});
    expect(report.finishReason).toBe('answer');
    expect(report.divergences).toEqual([]);
    expect(report.steps.map((step) => step.step)).toEqual([1, 2, 3]);
    expect(asked).toEqual([{ step: 2, callId: '2.1', name: 'add_to_cart', arguments: { qty: 2 }, reason: 'not-read-only' }]);
    expect(page.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
  });

  it('says it waits for the person only before a call that asks: a read-only tool just runs', async () => {
    const waitedFor = (events: AgentEvent[]) => events.flatMap((event) => (event.type === 'tool-approval-request' ? [event.name] : []));
    expect(waitedFor((await recordThenReplay({})).events)).toEqual(['add_to_cart']);
    expect(waitedFor((await recordThenReplay({}, true, true)).events)).toEqual(['open_product', 'add_to_cart']);
  });

  it('asks before every call, read-only ones too, when the person confirms every call, and says that is why', async () => {
    const { asked } = await recordThenReplay({}, true, true);
    expect(asked.map((pending) => [pending.name, pending.reason])).toEqual([
      ['open_product', 'confirm-all'],
      ['add_to_cart', 'confirm-all'],
    ]);
  });

  it('says a consequential tool asks because it has consequences, whatever else is set', async () => {
    const { trace } = await recordThenReplay({});
    const page = createShopPage();
    const consequential = () => page.tools().map((tool) => (tool.name === 'add_to_cart' ? { ...tool, annotations: { consequentialHint: true } } : tool));
    for (const askEveryCall of [false, true]) {
      const asked: ReplayCall[] = [];
      await replayTrace({ trace, getTools: consequential, executeTool: (parsed) => page.executeTool(parsed.name, parsed.arguments), confirm: async (pending) => (asked.push(pending), true), askEveryCall });
      expect(asked.find((pending) => pending.name === 'add_to_cart')?.reason).toBe('consequential');
    }
  });

  it('shows a tool renamed on the page at step 2, the step where the model calls it', async () => {
    const { report, asked, page } = await recordThenReplay({ rename: { from: 'add_to_cart', to: 'add_item' } });
    const atStep = (step: number) => report.divergences.filter((divergence) => divergence.step === step);
    expect(atStep(1)).toEqual([]);
    expect(atStep(2)).toEqual([
      { type: 'tool-list', step: 2, added: ['add_item'], removed: ['add_to_cart'], changed: [] },
      expect.objectContaining({ type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'unknown-tool' }),
    ]);
    expect(asked).toEqual([]);
    expect(page.cart).toEqual([]);
  });

  it('shows a call that now fails validation, and a result the page now gives differently', async () => {
    const renamedArgument = await recordThenReplay({ renameQuantity: true });
    expect(renamedArgument.report.divergences).toContainEqual(
      expect.objectContaining({ type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'invalid-arguments' }),
    );
    const repriced = await recordThenReplay({ prices: { 'enamel-mug': 14 } });
    expect(repriced.report.divergences).toEqual([
      {
        type: 'result',
        step: 1,
        name: 'open_product',
        recorded: { text: '{"slug":"enamel-mug","price":12,"inStock":true}' },
        replayed: { text: '{"slug":"enamel-mug","price":14,"inStock":true}' },
      },
    ]);
  });

  it('skips a call the person does not allow in the viewer, and says so', async () => {
    const { report, page } = await recordThenReplay({}, false);
    expect(page.cart).toEqual([]);
    expect(report.divergences).toEqual([expect.objectContaining({ type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'declined' })]);
  });

  it('ranks a follow-up with the tools the turn before called, as the run did, and matches an unchanged page', async () => {
    // A shop of 12 tools, more than the 8 a step shows: the words "try WELCOME5" do not name apply_coupon.
    const names = ['search_products', 'add_to_cart', 'get_cart', 'remove_item', 'checkout', 'list_orders', 'track_order', 'get_reviews', 'write_review', 'subscribe_newsletter', 'contact_support', 'apply_coupon'];
    const tools: ToolDescriptor[] = names.map((name) => ({ name, description: `${name.replace(/_/g, ' ')}.`, inputSchema: { type: 'object', properties: { code: { type: 'string' } } }, annotations: { readOnlyHint: true } }));
    const request = 'that did not work, try WELCOME5 instead';
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    recorder.startRun({ runId: 'follow-up', tabId: 7, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'recorded replies', request, startedAt: Date.now(), format: 'hermes', recentTools: ['apply_coupon'] });
    const result = await runLocalAgent({
      request,
      history: [{ role: 'user', content: 'apply the coupon SAVE10' }, { role: 'assistant', content: 'SAVE10 is not a valid code.' }],
      recentTools: ['apply_coupon'],
      model: createReplayEngine([call('apply_coupon', { code: 'WELCOME5' }), 'Done.'], { chunkSize: 50 }),
      format: hermesFormat,
      getTools: () => tools,
      executeTool: async () => ({ text: 'Coupon applied.' }),
      onEvent: (event) => recorder.record('follow-up', event),
    });
    recorder.endRun('follow-up', result.finishReason, Date.now());
    await recorder.flush();
    const trace = (await store.getTrace('follow-up'))!;
    expect(trace.run.recentTools).toEqual(['apply_coupon']);
    const ran: string[] = [];
    const report = await replayTrace({ trace, getTools: () => tools, executeTool: async (parsed) => (ran.push(parsed.name), { text: 'Coupon applied.' }), confirm: async () => true });
    expect(report.divergences).toEqual([]);
    expect(ran).toEqual(['apply_coupon']);
  });

  it('matches a recording whose engine cut a reply off inside a fourth copy of one call, which the run kept to the third', async () => {
    // An engine at its token cap: the reply as far as it came, its figures, then the cut.
    const copy = `${call('open_product', { slug: 'enamel-mug' })}\n`;
    const replies = [copy.repeat(3) + copy.slice(0, copy.indexOf('</tool_call>')), 'The mug is open.'];
    let turns = 0;
    const capped: LanguageModel = {
      async *stream(request): AsyncGenerator<ModelChunk> {
        const index = turns++;
        for (let at = 0; at < replies[index]!.length; at += 5) yield { type: 'text-delta', text: replies[index]!.slice(at, at + 5) };
        yield { type: 'usage', usage: { completionTokens: 1024 } };
        if (index === 0 && !request.signal.aborted) throw replyCutOff('1,024 tokens');
      },
    };
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'looping', model: capped });
    await recorder.flush();
    const trace = (await store.getTrace('looping'))!;
    expect(trace.steps[0]!.problems.map((problem) => problem.kind)).toEqual(['duplicate', 'duplicate']);

    const page = createShopPage();
    const report = await replayTrace({ trace, getTools: page.tools, executeTool: (parsed) => page.executeTool(parsed.name, parsed.arguments), confirm: async () => true });
    expect(report.finishReason).toBe('answer');
    expect(report.divergences).toEqual([]);
    expect(report.steps[0]!.calls).toHaveLength(3);

    // Where the page no longer has the tool, the copies are still a loop, read by their text: the
    // reply is kept as recorded, and the replay tells of the missing tool rather than of a cut.
    const renamed = createShopPage({ rename: { from: 'open_product', to: 'show_product' } });
    const changed = await replayTrace({ trace, getTools: renamed.tools, executeTool: (parsed) => renamed.executeTool(parsed.name, parsed.arguments), confirm: async () => true });
    expect(changed.finishReason).toBe('answer');
    const calls = changed.divergences.flatMap((divergence) => (divergence.type === 'call' ? [[divergence.recorded, divergence.replayed]] : []));
    expect(calls).toEqual([['ran', 'unknown-tool'], ['duplicate', 'unknown-tool'], ['duplicate', 'unknown-tool']]);
  });

  it('ends a reply its recording says was cut off with that cut, not with a length it never reached', async () => {
    const engine = createReplayEngine(['The mug', 'is open.'], { cutOff: new Set([0]) });
    const read = async () => {
      let text = '';
      for await (const chunk of engine.stream({ messages: [], tools: [], signal: new AbortController().signal })) if (chunk.type === 'text-delta') text += chunk.text;
      return text;
    };
    await expect(read()).rejects.toMatchObject({ message: 'The recorded reply was cut off here, and so is its replay.' });
    await expect(read()).resolves.toBe('is open.');

    // A reply told to stop (Stop, the end of the model's own turn) ends quietly, as an engine's does.
    const stopped = createReplayEngine(['The mug'], { cutOff: new Set([0]), chunkSize: 10 });
    const controller = new AbortController();
    const chunks = [];
    for await (const chunk of stopped.stream({ messages: [], tools: [], signal: controller.signal })) {
      chunks.push(chunk);
      controller.abort();
    }
    expect(chunks[0]).toEqual({ type: 'text-delta', text: 'The mug' });
  });

  it('sends again the thoughts a server sent apart from a reply, so that a step of thoughts alone replays as thinking, not as an empty reply', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    // A thinking model behind a server: its thoughts come apart (`reasoning_content`), then its reply.
    const said = [
      { thoughts: 'The mug first.', reply: call('open_product', { slug: 'enamel-mug' }) },
      { thoughts: 'It is in stock, so what now', reply: '' },
    ];
    let index = 0;
    const thinking: LanguageModel = {
      async *stream(): AsyncGenerator<ModelChunk> {
        const { thoughts, reply } = said[index++]!;
        yield { type: 'thinking', text: thoughts };
        if (reply) yield { type: 'text-delta', text: reply };
      },
    };
    await recordShopRun({ recorder, runId: 'thinking', model: thinking });
    await recorder.flush();
    const trace = (await store.getTrace('thinking'))!;
    expect(trace.steps.map((step) => step.thoughts)).toEqual(['The mug first.', 'It is in stock, so what now']);
    const page = createShopPage();
    const report = await replayTrace({ trace, getTools: page.tools, executeTool: (parsed) => page.executeTool(parsed.name, parsed.arguments), confirm: async () => true });
    expect(report.steps.map((step) => [step.thoughts, step.raw])).toEqual(trace.steps.map((step) => [step.thoughts, step.raw]));
    expect(report.divergences).toEqual([]);
  });
});
