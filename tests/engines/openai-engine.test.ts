import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { runLocalAgent, type ModelChunk } from '@webmcp-agents/local-agent';
import { describeFailure } from '../../lib/engines/describe-failure';
import { thinkingCutOffNotice } from '../../lib/agent/turn-notices';
import { EngineError, type EngineLoadProgress } from '../../lib/engines/engine';
import { readServerModels } from '../../lib/engines/openai/list-server-models';
import { createOpenAiEngine } from '../../lib/engines/openai/openai-engine';
import { defaultReplyTimeouts, timeoutsForPrompt, type ReplyTimeouts } from '../../lib/engines/openai/reply-timeouts';
import { normalizeServerAddress } from '../../lib/engines/openai/server-address';
import { turnOverReason } from '../../lib/local-agent/abortable';
import { defaultSettings, type Settings } from '../../lib/settings';
import { startFakeOllama, type FakeOllamaOptions } from './support/fake-ollama-server';
import { createInMemoryShop, runShopRequest, shopReplies } from './support/in-memory-shop';

const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

/** Chrome sends the extension's origin with the service worker's requests; so does this fetch. */
const fetchFromExtension: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: extensionOrigin } });

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup(options: FakeOllamaOptions, settings: Partial<Settings> = {}, replyTimeouts?: Partial<ReplyTimeouts>) {
  const server = await startFakeOllama(options);
  servers.push(server);
  const engine = createOpenAiEngine(
    { ...defaultSettings, openaiBaseUrl: server.address, ...settings },
    { fetch: fetchFromExtension, ...(replyTimeouts ? { replyTimeouts } : {}) },
  );
  return { server, engine };
}

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], tools: [], signal: new AbortController().signal });

/** The chunks a reply streamed, and the error it ended with, if any. */
async function replyOf(stream: AsyncIterable<ModelChunk>): Promise<{ text: string; chunks: ModelChunk[]; error: unknown }> {
  const chunks: ModelChunk[] = [];
  const error = await (async () => {
    for await (const chunk of stream) chunks.push(chunk);
  })().then(() => undefined, (caught: unknown) => caught);
  const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.text] : [])).join('');
  return { text, chunks, error };
}

/** The words of the thoughts a reply gave apart from its text. */
function thoughtsOf(reply: { chunks: ModelChunk[] }): string[] {
  return reply.chunks.flatMap((chunk) => (chunk.type === 'thinking' && chunk.text !== undefined ? [chunk.text] : []));
}

async function loadError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('local OpenAI-compatible server engine', () => {
  it('runs the shop task end to end against a server that streams like Ollama', async () => {
    const { server, engine } = await setup({ replies: shopReplies });
    const progress: EngineLoadProgress[] = [];
    await engine.load((event) => progress.push(event));
    expect(engine.modelId).toBe('qwen3:1.7b');
    expect(engine.format.id).toBe('hermes');
    expect(progress.at(-1)).toEqual({ fraction: 1, text: `Connected to ${new URL(server.address).host}: qwen3:1.7b.`, fromCache: true });

    const { result, events, shop } = await runShopRequest(engine, 'Add two enamel mugs to my cart');
    expect(result.finishReason).toBe('answer');
    expect(result.text).toBe('I added two Enamel camping mugs (12 each) to your cart.');
    expect(shop.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
    expect(server.requests).toHaveLength(4);
    expect(server.requests[0]).toMatchObject({ model: 'qwen3:1.7b', stream: true, stream_options: { include_usage: true }, temperature: 0.2 });
    expect(server.requests[1]!.messages.at(-1)!.content).toMatch(/^<tool_response>/);
    const usages = events.flatMap((event) => (event.type === 'step-end' ? [event.usage] : []));
    for (const usage of usages) {
      expect(usage.promptTokens).toBeGreaterThan(0);
      expect(usage.completionTokens).toBeGreaterThan(0);
      expect(usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('uses the model the person picked, and says which ones exist when it is missing', async () => {
    const picked = await setup({ replies: [] }, { model: 'llama3.2:3b' });
    await picked.engine.load(() => {});
    expect(picked.engine.modelId).toBe('llama3.2:3b');
    expect(picked.engine.format.id).toBe('llama3-json');

    const missing = await setup({ replies: [] }, { model: 'mistral:7b' });
    const error = await loadError(missing.engine.load(() => {}));
    expect(error.code).toBe('not-configured');
    expect(error.message).toMatch(/has no model called "mistral:7b"\.$/);
    expect(error.hint).toBe('Pick one of its models in the options: qwen3:1.7b, llama3.2:3b.');
  });

  it('with no model picked, uses the server\'s first chat model, passing over embedding models', async () => {
    const fresh = await setup({ replies: [], models: ['nomic-embed-text:latest', 'bge-m3', 'qwen3:1.7b', 'llama3.2:3b'] });
    await fresh.engine.load(() => {});
    expect(fresh.engine.modelId).toBe('qwen3:1.7b');

    // With only embedding models, it says so, rather than send a chat to one.
    const embedding = await setup({ replies: [], models: ['nomic-embed-text:latest', 'bge-m3'] });
    const error = await loadError(embedding.engine.load(() => {}));
    expect(error).toMatchObject({ code: 'not-configured', message: `The server at ${new URL(embedding.server.address).host} has only embedding models, which cannot chat.` });
    expect(embedding.server.requests).toEqual([]);
  });

  it("with no model picked, keeps the model it picked, so another tab's load does not switch a run to another model, and asks the server again only once a reply fails", async () => {
    const listed = ['qwen3:1.7b', 'llama3.2:3b'];
    const { engine, server } = await setup({ models: listed, replies: shopReplies });
    const host = new URL(server.address).host;
    await engine.load(() => {});
    const shop = createInMemoryShop();
    const connected: string[] = [];
    const result = await runLocalAgent({
      request: 'Add two enamel mugs to my cart',
      model: engine.model,
      format: engine.format,
      getTools: () => shop.tools,
      executeTool: async (call) => {
        // Meanwhile a model was pulled (Ollama lists the newest first) and another tab sent a request.
        listed.splice(0, listed.length, 'llama3.2:3b', 'qwen3:1.7b');
        await engine.load((progress) => connected.push(progress.text));
        return shop.executeTool(call);
      },
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: 'I added two Enamel camping mugs (12 each) to your cart.' });
    expect(server.requests.map((request) => request.model)).toEqual(['qwen3:1.7b', 'qwen3:1.7b', 'qwen3:1.7b', 'qwen3:1.7b']);
    // Connected, and answered since: the loads during the run asked the server nothing.
    expect(connected).toEqual([]);
    // Nor after a reply the person stopped: that says nothing of the server.
    const stop = new AbortController();
    const stopped = replyOf(engine.model.stream({ ...ask('Hi'), signal: stop.signal }));
    stop.abort();
    await stopped;
    await engine.load((progress) => connected.push(progress.text));
    expect(connected).toEqual([]);

    // Gone from the server, its next reply fails, and the load after it gives way to the server's first chat model.
    listed.splice(listed.indexOf('qwen3:1.7b'), 1);
    expect((await replyOf(engine.model.stream(ask('Hi')))).error).toBeInstanceOf(EngineError);
    await engine.load((progress) => connected.push(progress.text));
    expect(connected.at(-1)).toBe(`Connected to ${host}: llama3.2:3b.`);
  });

  it('says the server is down and how to start it', async () => {
    const { server, engine } = await setup({ replies: [] });
    await server.close();
    servers = [];
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('server-down');
    expect(error.message).toBe(`No server answers at ${server.address}.`);
    expect(error.hint).toContain('ollama serve');
  });

  it('says what to do when Ollama refuses the extension\'s origin (HTTP 403)', async () => {
    const { engine, server } = await setup({ replies: [], allowedOrigins: ['http://localhost', 'app://*'] });
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('forbidden');
    expect(error.message).toBe(`The server at ${new URL(server.address).host} refused this extension (HTTP 403).`);
    expect(error.hint).toContain('OLLAMA_ORIGINS=chrome-extension://*');
    expect(server.origins).toContain(extensionOrigin);

    const allowed = await setup({ replies: ['Hi.'], allowedOrigins: ['chrome-extension://*'] });
    await allowed.engine.load(() => {});
  });

  it('brings the key a server started with one asks for, to every request; without it, says where to enter it', async () => {
    const key = 'sk-local-7f3a';
    const keyless = await setup({ replies: [], apiKey: key });
    const error = await loadError(keyless.engine.load(() => {}));
    expect(error.code).toBe('forbidden');
    expect(error.message).toBe(`The server at ${new URL(keyless.server.address).host} asks for an API key, or refused the one given (HTTP 401).`);
    expect(error.hint).toBe('Enter the key the server was started with under "API key" in the options.');
    expect(describeFailure(error).hint).toBe('Enter the key the server was started with under "API key", then press Connect.');

    const { engine, server } = await setup({ replies: ['Hello.'], apiKey: key, saysContext: { as: 'llama.cpp', tokens: 8_192 } }, { openaiApiKey: key });
    await engine.load(() => {});
    // The context came from the server's own endpoint, which asks for the key too.
    expect(engine.contextTokens).toBe(8_192);
    expect((await replyOf(engine.model.stream(ask('Hi')))).text).toBe('Hello.');
    // The model list, the context and the reply: each brought it.
    expect(server.authorizations.length).toBeGreaterThanOrEqual(3);
    expect(new Set(server.authorizations)).toEqual(new Set([`Bearer ${key}`]));
  });

  it('sends nothing on where the server redirects to another address, and says so, rather than talk to a computer the person never named', async () => {
    // The computer a redirect would send the prompt to.
    const elsewhere = await setup({ replies: ['From elsewhere.'] });
    const redirecting = (redirectModels: boolean) =>
      new Promise<{ address: string; close(): Promise<void> }>((resolve) => {
        const server: Server = createServer((request, response) => {
          if (request.url === '/v1/models' && !redirectModels) {
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'qwen3:1.7b' }] }));
            return;
          }
          response.writeHead(307, { location: `${elsewhere.server.address}${request.url!.slice('/v1'.length)}` }).end();
        });
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          const close = () => new Promise<void>((done) => server.close(() => done()));
          servers.push({ close });
          resolve({ address: `http://127.0.0.1:${port}/v1`, close });
        });
      });
    const words = (host: string) =>
      `The server at ${host} sent the request on to another address, which the extension does not follow: it sends your requests, and the page's tools, only to the address in the options.`;

    const chatOnly = await redirecting(false);
    const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: chatOnly.address }, { fetch: fetchFromExtension });
    await engine.load(() => {});
    const { error } = await replyOf(engine.model.stream(ask('my card is 4111')));
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toBe(words(new URL(chatOnly.address).host));
    expect((error as EngineError).hint).toBe('Type the address the server sends requests to (its log or its documentation says which) in the options.');

    const modelsToo = await redirecting(true);
    const connectError = await loadError(createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: modelsToo.address }, { fetch: fetchFromExtension }).load(() => {}));
    expect(connectError.message).toBe(words(new URL(modelsToo.address).host));
    expect(describeFailure(connectError).hint).toBe('Type the address the server sends requests to (its log or its documentation says which), then press Connect.');
    // Not one request reached the other computer.
    expect(elsewhere.server.requests).toEqual([]);
    expect(elsewhere.server.origins).toEqual([]);
  });

  it('reaches a server that says it listens on every interface (0.0.0.0, as vLLM prints it) on this computer\'s loopback', () => {
    expect(normalizeServerAddress('http://0.0.0.0:8000')).toBe('http://127.0.0.1:8000/v1');
    expect(normalizeServerAddress('0.0.0.0:8000/v1/')).toBe('http://127.0.0.1:8000/v1');
    expect(normalizeServerAddress('http://[::]:8000/v1')).toBe('http://[::1]:8000/v1');
    // Only that address: another is left as typed.
    expect(normalizeServerAddress('http://10.0.0.0:8000/v1')).toBe('http://10.0.0.0:8000/v1');
  });

  it('refuses an address with a key or user name written into it, rather than drop it unsaid', () => {
    expect(() => normalizeServerAddress('http://me:sk-local-7f3a@gpu-box.lan:8080/v1')).toThrow('The server address has a user name or key in it (before "@gpu-box.lan:8080").');
    // Without a scheme too, and the key is never repeated in the message.
    expect(() => normalizeServerAddress('me:sk-local-7f3a@gpu-box.lan:8080/v1')).toThrow('The server address has a user name or key in it (before "@gpu-box.lan:8080").');
    expect(() => normalizeServerAddress('https://gw.example/v1?api_key=sk-local-7f3a')).toThrow('The server address has a query or fragment in it (after "/v1").');
  });

  it('hangs up on the server where the model writes a tool result itself, and asks the next step at once', async () => {
    const madeUp = `<tool_response>\n{"results": [{"slug": "enamel-mug"}]}\n</tool_response>\n${'Found it. Shall I add it to your cart? '.repeat(100)}`;
    const { server, engine } = await setup({ replies: [shopReplies[0] + madeUp, 'The enamel mug costs 12.'] });
    await engine.load(() => {});
    const { result, events } = await runShopRequest(engine, 'How much is the enamel mug?');
    expect(result).toMatchObject({ finishReason: 'answer', text: 'The enamel mug costs 12.' });
    expect(events.flatMap((event) => (event.type === 'tool-call' ? [event.name] : []))).toEqual(['search_products']);
    // The connection of the first reply was closed before the server sent all of it; the second came whole.
    await expect.poll(() => server.closedByClient).toHaveLength(1);
    expect(server.closedByClient[0]).toBe(server.requests[0]);
    const raws = events.flatMap((event) => (event.type === 'step-end' ? [event.raw] : []));
    expect(raws[0]!.startsWith(`${shopReplies[0]}<tool_response>`)).toBe(true);
    expect(raws[0]!.length).toBeLessThan(shopReplies[0]!.length + 40);
    expect(raws[1]).toBe('The enamel mug costs 12.');
  });

  it('still says what a reply stopped at a tool result the model made up cost, and reads Ollama\'s context after it; a Stop says nothing', async () => {
    const madeUp = `<tool_response>\n{"results": [{"slug": "enamel-mug"}]}\n</tool_response>\n${'Found it. '.repeat(200)}`;
    const { engine } = await setup({ replies: [shopReplies[0] + madeUp, shopReplies[0] + madeUp], chunkSize: 4, saysContext: { as: 'ollama', tokens: 4_096 } });
    await engine.load(() => {});
    expect(engine.contextTokens).toBeUndefined();
    // Read as the agent reads a reply: stopped where it goes past the model's own turn, or on Stop, then drained.
    const readStopped = async (reason?: unknown) => {
      const controller = new AbortController();
      const request = { messages: [{ role: 'user' as const, content: 'How much is the enamel mug?' }], tools: [], signal: controller.signal };
      const chunks: ModelChunk[] = [];
      let text = '';
      const error = await (async () => {
        for await (const chunk of engine.model.stream(request) as AsyncIterable<ModelChunk>) {
          chunks.push(chunk);
          if (chunk.type === 'text-delta') text += chunk.text;
          if (text.includes('<tool_response>') && !controller.signal.aborted) controller.abort(reason);
        }
      })().then(() => undefined, (caught: unknown) => caught);
      return { deltas: chunks.filter((chunk) => chunk.type === 'text-delta').length, usage: chunks.find((chunk) => chunk.type === 'usage'), error };
    };
    const cut = await readStopped(turnOverReason());
    expect(cut.error).toBeUndefined();
    // The time it took; no token count, as the server never said one (its streamed pieces are not its tokens).
    expect(cut.usage).toMatchObject({ type: 'usage', usage: { timeToFirstTokenMs: expect.any(Number) } });
    expect(cut.usage?.type === 'usage' && cut.usage.usage.completionTokens).toBeUndefined();
    // Counted until the connection closed, long before the made-up tail ended.
    expect(cut.deltas).toBeLessThan((shopReplies[0]! + madeUp).length / 4 / 2);
    // Ollama's context is read again after the reply, as after any.
    await expect.poll(() => engine.contextTokens).toBe(4_096);
    const stopped = await readStopped();
    expect(stopped.error).toMatchObject({ name: 'AbortError' });
    expect(stopped.usage).toBeUndefined();
  });

  it('stops reading the reply when the run is stopped', async () => {
    const { engine } = await setup({ replies: ['A long reply that goes on and on and on.'], chunkSize: 2 });
    await engine.load(() => {});
    const controller = new AbortController();
    const texts: string[] = [];
    const request = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: [], signal: controller.signal };
    const error = await (async () => {
      for await (const chunk of engine.model.stream(request) as AsyncIterable<ModelChunk>) {
        if (chunk.type === 'text-delta') texts.push(chunk.text);
        if (texts.length === 3) controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(texts.join('')).toBe('A long');
  });

  it('says a reply was cut off at the server\'s length limit instead of passing half of it as the answer', async () => {
    // Whether or not the server said its context (which the reply is far from filling): its own limit stopped it.
    for (const saysContext of [undefined, { as: 'llama.cpp' as const, tokens: 32_768 }]) {
      const { engine } = await setup({ replies: ['word '.repeat(100)], lengthLimitTokens: 20, ...(saysContext ? { saysContext } : {}) });
      await engine.load(() => {});
      const request = { messages: [{ role: 'user' as const, content: 'Write a lot' }], tools: [], signal: new AbortController().signal };
      const error = await (async () => {
        for await (const _chunk of engine.model.stream(request) as AsyncIterable<ModelChunk>) void _chunk;
      })().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'EngineError', code: 'reply-cut-off' });
    }
  });

  it('times the first token and the speed of a reply the server sends as tool_calls pieces from the first piece, not from the call told whole at the end', async () => {
    const server = await startFakeOllama({ replies: [] });
    servers.push(server);
    // The server's stream, piece by piece as the test lets it go, on a clock the test moves.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    onTestFinished(() => now.mockRestore());
    let push: (text: string) => void = () => {};
    let close = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        close = () => controller.close();
      },
    });
    const sse = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
    const piece = (toolCall: object, finish: string | null = null) => sse({ choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: finish }] });
    const streaming: typeof fetch = (input, init) =>
      String(input).endsWith('/chat/completions') ? Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } })) : fetchFromExtension(input, init);
    const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: server.address }, { fetch: streaming });
    await engine.load(() => {});
    const reply = engine.model.stream(ask('Find a mug'))[Symbol.asyncIterator]();
    const next = reply.next();
    clock = 500;
    push(piece({ index: 0, id: 'call_1', type: 'function', function: { name: 'search_products', arguments: '' } }));
    await next;
    for (const part of ['{"que', 'ry": ', '"m', 'ug"', '}']) {
      clock += 200;
      const told = reply.next();
      push(piece({ index: 0, function: { arguments: part } }));
      await told;
    }
    push(sse({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 40, completion_tokens: 11 } }));
    push('data: [DONE]\n\n');
    close();
    const rest: ModelChunk[] = [];
    for (let result = await reply.next(); !result.done; result = await reply.next()) rest.push(result.value);
    const usage = rest.find((chunk) => chunk.type === 'usage');
    // 10 tokens after the first, over the second from the first piece to the last.
    expect(usage).toMatchObject({ type: 'usage', usage: { timeToFirstTokenMs: 500, decodeTokensPerSecond: 10 } });
  });

  it('runs the calls a server sends apart from the text, in tool_calls, streamed in pieces or whole', async () => {
    for (const answerAs of ['tool-calls-stream', 'tool-calls-whole'] as const) {
      const calls = JSON.stringify([{ name: 'search_products', arguments: { query: 'enamel mug' } }]);
      const { engine } = await setup({ replies: [calls, calls, 'The enamel mug is in stock.'], answerAs });
      await engine.load(() => {});
      const reply = await replyOf(engine.model.stream(ask('Find an enamel mug')));
      expect(reply.error).toBeUndefined();
      expect(reply.text).toBe('<tool_call>\n{"name": "search_products", "arguments": {"query":"enamel mug"}}\n</tool_call>');
      // A call's pieces are held until the reply ends: each is told as an empty piece, so that the
      // panel does not take the time the model writes a call for a server that stalled.
      const empty = reply.chunks.filter((chunk) => chunk.type === 'text-delta' && chunk.text === '').length;
      expect(empty > 1).toBe(answerAs === 'tool-calls-stream');
      const shop = createInMemoryShop();
      const ran: string[] = [];
      const result = await runLocalAgent({
        request: 'Find an enamel mug',
        model: engine.model,
        format: engine.format,
        getTools: () => shop.tools,
        executeTool: (call) => {
          ran.push(`${call.name} ${JSON.stringify(call.arguments)}`);
          return shop.executeTool(call);
        },
      });
      expect(ran).toEqual(['search_products {"query":"enamel mug"}']);
      expect(result).toMatchObject({ finishReason: 'answer', text: 'The enamel mug is in stock.' });
    }
  });

  it('stops a reply at its token cap itself where the server ignores max_tokens, rather than stream until Stop', async () => {
    // One token a chunk, as servers stream: 5,000 of them, far past the 1,024 asked for.
    const { engine, server } = await setup({ replies: ['word '.repeat(5_000)], chunkSize: 5, ignoresMaxTokens: true });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Write a lot')));
    expect(reply.error).toMatchObject({ name: 'EngineError', code: 'reply-cut-off', message: expect.stringContaining('1,024 tokens') });
    expect(reply.text).toBe('word '.repeat(1_024));
    expect(server.requests.at(-1)).toMatchObject({ max_tokens: 1_024 });
    // The connection closed before the server had sent it all: it stops writing too.
    await vi.waitFor(() => expect(server.closedByClient).toHaveLength(1));

    // A run that asks for longer replies (the person's "Longest reply") is sent and held to its own limit.
    const longer = await setup({ replies: ['word '.repeat(5_000)], chunkSize: 5, ignoresMaxTokens: true });
    await longer.engine.load(() => {});
    const long = await replyOf(longer.engine.model.stream({ ...ask('Write a lot'), maxTokens: 2_000 }));
    expect(long.error).toMatchObject({ code: 'reply-cut-off', message: "The model's reply reached 2,000 tokens and was cut off." });
    expect(long.text).toBe('word '.repeat(2_000));
    expect(longer.server.requests.at(-1)).toMatchObject({ max_tokens: 2_000 });

    // A call streamed in tool_calls counts too: 1,400 pieces of arguments are past the cap.
    const looping = await setup({ replies: [JSON.stringify([{ name: 'write_note', arguments: { text: 'again '.repeat(1_000) } }])], answerAs: 'tool-calls-stream' });
    await looping.engine.load(() => {});
    expect((await replyOf(looping.engine.model.stream(ask('Write a note')))).error).toMatchObject({ code: 'reply-cut-off' });
  });

  it('offers a higher "Longest reply" in a cut-off\'s hint only where it would give the reply more room', async () => {
    const atHighest = await setup({ replies: ['word '.repeat(16_500)], chunkSize: 50 }, { replyTokens: 16_384 });
    await atHighest.engine.load(() => {});
    const highest = await replyOf(atHighest.engine.model.stream({ ...ask('Write a lot'), maxTokens: 16_384 }));
    expect(highest.error).toMatchObject({ code: 'reply-cut-off', hint: 'Ask for something shorter, or for a long answer a part at a time.' });

    // A server that says its 4,096-token context: the agent core keeps a reply within half of it.
    const small = await setup({ replies: ['word '.repeat(2_100)], chunkSize: 50, saysContext: { as: 'llama.cpp', tokens: 4_096 } }, { replyTokens: 4_096 });
    await small.engine.load(() => {});
    const held = await replyOf(small.engine.model.stream({ ...ask('Write a lot'), maxTokens: 2_048 }));
    expect(held.error).toMatchObject({
      code: 'reply-cut-off',
      hint: "Ask for something shorter, or for a long answer a part at a time: the model's 4,096-token context leaves a reply no more room.",
    });
  });

  it('says the conversation no longer fits, as WebLLM does, when the context the server said fills while the model writes, so the agent fits the prompt again and goes on', async () => {
    // llama.cpp without context shift stops a reply with "length" where the context is full.
    const call = `<tool_call>\n{"name": "search_products", "arguments": {"query": "${'mug '.repeat(480)}"}}\n</tool_call>`;
    const history = Array.from({ length: 6 }, (_, index) => ({ role: index % 2 ? ('assistant' as const) : ('user' as const), content: `Earlier message ${index}. `.repeat(30) }));
    const { engine, server } = await setup({ replies: ['word '.repeat(200), call, call, 'People like the mug.'], contextTokens: 1_600, saysContext: { as: 'llama.cpp', tokens: 1_600 } });
    await engine.load(() => {});
    const alone = await replyOf(engine.model.stream({ ...ask('x'), messages: [{ role: 'user', content: 'word '.repeat(1_200) }] }));
    expect(alone.error).toMatchObject({ code: 'context-full', contextTokens: 1_600 });

    const shop = createInMemoryShop();
    const ran: string[] = [];
    const result = await runLocalAgent({
      request: 'What do people say about the mug?',
      history,
      model: engine.model,
      format: engine.format,
      contextTokens: 4_096,
      getTools: () => shop.tools,
      executeTool: async (call) => {
        ran.push(call.name);
        return { text: 'The mug keeps coffee hot.' };
      },
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: 'People like the mug.' });
    // The first prompt filled the context as the call was written; a smaller one left it room.
    const tokens = server.requests.map((request) => request.messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
    expect(tokens).toHaveLength(4);
    expect(tokens[2]).toBeLessThan(tokens[1]!);
    expect(ran).toEqual(['search_products']);
  });

  it('ends a reply as the server said, when the connection breaks after that, before [DONE]: a whole one is kept, a cut one says it was cut off', async () => {
    const { engine } = await setup({ replies: ['Two mugs are in the cart.'], breakAfterFinish: true });
    await engine.load(() => {});
    const { text, chunks, error } = await replyOf(engine.model.stream(ask('Add two mugs')));
    expect(error).toBeUndefined();
    expect(text).toBe('Two mugs are in the cart.');
    expect(chunks.at(-1)).toMatchObject({ type: 'usage' });

    // One the server said it cut at its length limit says so, with the figures it sent, not that the connection broke.
    const cut = await setup({ replies: ['word '.repeat(100)], lengthLimitTokens: 20, breakAfterFinish: true });
    await cut.engine.load(() => {});
    const cutReply = await replyOf(cut.engine.model.stream(ask('Write a lot')));
    expect(cutReply.error).toMatchObject({ code: 'reply-cut-off', message: "The model's reply reached the server's length limit or the end of the model's context and was cut off." });
    expect(cutReply.chunks.at(-1)).toMatchObject({ type: 'usage', usage: { completionTokens: 20 } });
  });

  it('ends a reply a moment after the server said it finished, where the server then neither ends the stream nor closes it', async () => {
    const { engine } = await setup({ replies: ['Two mugs are in the cart.'], hangAfterFinish: true }, {}, { betweenChunksMs: 60_000, afterFinishMs: 50 });
    await engine.load(() => {});
    const { text, chunks, error } = await replyOf(engine.model.stream(ask('Add two mugs')));
    expect(error).toBeUndefined();
    expect(text).toBe('Two mugs are in the cart.');
    expect(chunks.at(-1)).toMatchObject({ type: 'usage' });
  });

  it('reads a delta whose content comes as a list of text parts, and a legacy completion chunk’s text', async () => {
    const fetchParts: typeof fetch = async () =>
      new Response(
        [
          { choices: [{ delta: { content: [{ type: 'text', text: 'Two mugs ' }, { type: 'text', text: 'are ' }] } }] },
          { choices: [{ text: 'in the cart.' }] },
          { choices: [{ delta: {}, finish_reason: 'stop' }] },
        ]
          .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
          .join('') + 'data: [DONE]\n\n',
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const models: typeof fetch = async (input, init) =>
      String(input).endsWith('/models') ? new Response(JSON.stringify({ data: [{ id: 'm' }] }), { headers: { 'content-type': 'application/json' } }) : fetchParts(input, init);
    const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: 'http://127.0.0.1:8/v1' }, { fetch: models });
    await engine.load(() => {});
    expect((await replyOf(engine.model.stream(ask('Add two mugs')))).text).toBe('Two mugs are in the cart.');
  });

  it('streams the reply of a server that parts its events by one line break, rather than call it one it could not read', async () => {
    const chunks = [{ choices: [{ delta: { content: 'Two mugs ' } }] }, { choices: [{ delta: { content: 'are in the cart.' }, finish_reason: 'stop' }] }];
    const fetchTight: typeof fetch = async (input) =>
      String(input).endsWith('/models')
        ? new Response(JSON.stringify({ data: [{ id: 'm' }] }), { headers: { 'content-type': 'application/json' } })
        : new Response(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n`).join('')}data: [DONE]\n`, { headers: { 'content-type': 'text/event-stream' } });
    const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: 'http://127.0.0.1:8/v1' }, { fetch: fetchTight });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Add two mugs')));
    expect(reply.error).toBeUndefined();
    expect(reply.chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk as { text: string }).text)).toEqual(['Two mugs ', 'are in the cart.']);
  });

  it("shows the server's own words where an error comes as a chunk of the stream: vLLM's, or an error event with only a message", async () => {
    const streamOf = (events: string) => async (input: RequestInfo | URL) =>
      String(input).endsWith('/models')
        ? new Response(JSON.stringify({ data: [{ id: 'm' }] }), { headers: { 'content-type': 'application/json' } })
        : new Response(events, { headers: { 'content-type': 'text/event-stream' } });
    const started = `data: ${JSON.stringify({ choices: [{ delta: { content: 'Two mugs ' } }] })}\n\n`;
    for (const [events, words] of [
      [`${started}data: {"object":"error","message":"CUDA out of memory","type":"InternalServerError","code":500}\n\n`, 'CUDA out of memory.'],
      [`${started}event: error\ndata: {"message":"model crashed: out of memory"}\n\n`, 'model crashed: out of memory.'],
    ] as const) {
      const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: 'http://127.0.0.1:8/v1' }, { fetch: streamOf(events) });
      await engine.load(() => {});
      const reply = await replyOf(engine.model.stream(ask('Add two mugs')));
      expect(reply.text).toBe('Two mugs ');
      expect(reply.error).toMatchObject({ code: 'unavailable', message: `The server at 127.0.0.1:8 stopped the reply: ${words}` });
    }
  });

  it("shows the server's own words where it answers a stream with plain JSON or ends on an error line", async () => {
    const died = await setup({ replies: ['unused'], answerAs: 'json-error-as-stream' });
    await died.engine.load(() => {});
    expect((await replyOf(died.engine.model.stream(ask('Hi')))).error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('stopped the reply: model runner has unexpectedly stopped') });

    const crashed = await setup({ replies: ['unused'], answerAs: 'error-line-unended' });
    await crashed.engine.load(() => {});
    expect((await replyOf(crashed.engine.model.stream(ask('Hi')))).error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/stopped the reply: the model crashed\.$/) });

    // A whole completion with no content type at all is read as the answer.
    const untyped = await setup({ replies: ['I found two mugs.'], answerAs: 'untyped-whole-json' });
    await untyped.engine.load(() => {});
    const whole = await replyOf(untyped.engine.model.stream(ask('Hi')));
    expect(whole.error).toBeUndefined();
    expect(whole.text).toBe('I found two mugs.');
  });

  it('says the conversation no longer fits when llama.cpp refuses a prompt longer than its context, as an error event or as HTTP 400', async () => {
    const { engine } = await setup({ replies: ['unused'], errorEventMessage: 'the request exceeds the available context size' });
    await engine.load(() => {});
    const { error } = await replyOf(engine.model.stream(ask('Hi')));
    expect(error).toMatchObject({ name: 'EngineError', code: 'context-full', message: 'This conversation no longer fits in the context of "qwen3:1.7b".' });

    const small = await setup({ replies: ['unused'], contextTokens: 2_048 });
    await small.engine.load(() => {});
    const refused = await replyOf(small.engine.model.stream(ask('word '.repeat(2_000))));
    expect(refused.error).toMatchObject({ code: 'context-full', contextTokens: 2_048, message: 'This conversation no longer fits in the 2,048-token context of "qwen3:1.7b".' });
    expect((refused.error as EngineError).hint).toContain('Start a new chat');
  });

  it('shows the server\'s own message when it fails the reply with an error event for another reason', async () => {
    const { engine } = await setup({ replies: ['unused'], errorEventMessage: 'slot unavailable', errorEventType: 'unavailable_error' });
    await engine.load(() => {});
    const { error } = await replyOf(engine.model.stream(ask('Hi')));
    expect(error).toMatchObject({ name: 'EngineError', code: 'unavailable' });
    expect((error as EngineError).message).toContain('slot unavailable');
    // The options page's Try it has no request to send again.
    expect(error).toMatchObject({ hint: "Check the server's own log, then send your request again.", optionsHint: "Check the server's own log, then press Try it again." });
  });

  it('goes on with the prompt fitted to the context llama.cpp says it has, when it was started with a smaller one than the agent assumes', async () => {
    const { engine, server } = await setup({
      replies: ['<tool_call>\n{"name": "search_products", "arguments": {"query": "mug reviews"}}\n</tool_call>', 'People like the mug.'],
      contextTokens: 2_048,
    });
    await engine.load(() => {});
    const shop = createInMemoryShop();
    const result = await runLocalAgent({
      request: 'What do people say about the mug?',
      model: engine.model,
      format: engine.format,
      // What the side panel assumes of a server's model, which says nothing of its context.
      contextTokens: 4_096,
      toolOutputLimit: 20_000,
      getTools: () => shop.tools,
      executeTool: async () => ({ text: 'The mug keeps coffee hot for an hour and the handle stays cool. '.repeat(300) }),
    });
    expect(result).toMatchObject({ finishReason: 'answer', text: 'People like the mug.' });
    expect(server.refused).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.messages.at(-1)!.content).toMatch(/coffee hot[\s\S]*cut: \d+ more characters not shown/);
  });

  it('reads a server that answers whole instead of streaming, and says what is wrong with a web page or data it cannot read', async () => {
    const whole = await setup({ replies: ['I found two mugs.'], answerAs: 'whole-json' });
    await whole.engine.load(() => {});
    const read = await replyOf(whole.engine.model.stream(ask('Hi')));
    expect(read.error).toBeUndefined();
    expect(read.text).toBe('I found two mugs.');
    expect(read.chunks.at(-1)).toMatchObject({ type: 'usage', usage: { promptTokens: 12, completionTokens: 5 } });

    // A whole reply that went on past the model's own turn to the server's length limit was whole at the cut.
    const madeUp = `<tool_response>\n{"results": [{"slug": "enamel-mug"}]}\n</tool_response>\n${'Found it. '.repeat(200)}`;
    const pastTurn = await setup({ replies: [shopReplies[0] + madeUp, 'The enamel mug costs 12.'], answerAs: 'whole-json', lengthLimitTokens: 200 });
    await pastTurn.engine.load(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { result, events } = await runShopRequest(pastTurn.engine, 'How much is the enamel mug?');
      expect(result).toMatchObject({ finishReason: 'answer', text: 'The enamel mug costs 12.' });
      expect(events.find((event) => event.type === 'step-end')).toMatchObject({ usage: { promptTokens: 12, completionTokens: 5 } });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }

    const page = await setup({ replies: ['unused'], answerAs: 'web-page' });
    await page.engine.load(() => {});
    const { error } = await replyOf(page.engine.model.stream(ask('Hi')));
    expect(error).toMatchObject({ code: 'not-configured', message: `The server at ${new URL(page.server.address).host} answered with a web page, not a chat reply.` });
    expect((error as EngineError).hint).toContain('usually ends in /v1');

    const unreadable = await setup({ replies: ['unused'], answerAs: 'unreadable-stream' });
    await unreadable.engine.load(() => {});
    const garbled = await replyOf(unreadable.engine.model.stream(ask('Hi')));
    expect(garbled.error).toMatchObject({ code: 'unavailable', message: `The server at ${new URL(unreadable.server.address).host} sent a reply this extension could not read.` });

    // Without `data: [DONE]` too: nothing read is no half reply, and "closed the connection" would mislead.
    const unended = await setup({ replies: ['unused'], answerAs: 'unreadable-stream-unended' });
    await unended.engine.load(() => {});
    const cut = await replyOf(unended.engine.model.stream(ask('Hi')));
    expect(cut.error).toMatchObject({ code: 'unavailable', message: `The server at ${new URL(unended.server.address).host} sent a reply this extension could not read.` });
    expect((cut.error as EngineError).hint).toContain('usually ends in /v1');
  });

  it('says a reply that is neither a stream, JSON nor a web page (a proxy\'s plain words, Ollama\'s own NDJSON) is one it could not read, not one closed in the middle', async () => {
    for (const answerAs of ['plain-text', 'ndjson'] as const) {
      const { engine, server } = await setup({ replies: ['Hi!'], answerAs });
      await engine.load(() => {});
      const { text, error } = await replyOf(engine.model.stream(ask('Hi')));
      expect(text, answerAs).toBe('');
      expect(error, answerAs).toMatchObject({ code: 'unavailable', message: `The server at ${new URL(server.address).host} sent a reply this extension could not read.` });
      expect((error as EngineError).hint, answerAs).toBe(
        "Check that the address is the server's OpenAI-compatible API (it usually ends in /v1). Check the server's own log, then send your request again.",
      );
    }
  });

  it('on loading, says an address that answers with a web page or data it cannot read is not the API, rather than "no models"', async () => {
    const page = await setup({ replies: [], modelsAs: 'web-page' });
    const pageError = await loadError(page.engine.load(() => {}));
    expect(pageError).toMatchObject({ code: 'not-configured', message: `The server at ${new URL(page.server.address).host} answered with a web page, not a list of models.` });
    expect(pageError.hint).toBe("Check the address in the options: it should be the server's OpenAI-compatible API, which usually ends in /v1.");
    for (const modelsAs of ['not-json', 'no-list'] as const) {
      const { engine, server } = await setup({ replies: [], modelsAs });
      const error = await loadError(engine.load(() => {}));
      expect(error, modelsAs).toMatchObject({ code: 'unavailable', message: `The server at ${new URL(server.address).host} sent a reply this extension could not read.` });
      expect(error.message).not.toContain('no models');
    }
  });

  it('reads the model\'s context where the server says it, and assumes none where it does not', async () => {
    for (const [as, tokens] of [['llama.cpp', 8_192], ['lm-studio', 16_384]] as const) {
      const { engine, server } = await setup({ replies: [], saysContext: { as, tokens } });
      const progress: EngineLoadProgress[] = [];
      await engine.load((event) => progress.push(event));
      expect(engine.contextTokens, as).toBe(tokens);
      expect(progress.at(-1)?.text).toBe(`Connected to ${new URL(server.address).host}: qwen3:1.7b (a ${tokens.toLocaleString('en-US')}-token context).`);
    }
    // Ollama says it only once a reply has loaded the model, and after each reply: another program
    // may have loaded it again with another context.
    const says = { as: 'ollama' as const, tokens: 2_048 };
    const ollama = await setup({ replies: ['Hi.', 'Hello.'], saysContext: says });
    await ollama.engine.load(() => {});
    expect(ollama.engine.contextTokens).toBeUndefined();
    await replyOf(ollama.engine.model.stream(ask('Hi')));
    await expect.poll(() => ollama.engine.contextTokens).toBe(2_048);
    says.tokens = 8_192;
    await replyOf(ollama.engine.model.stream(ask('Hi again')));
    await expect.poll(() => ollama.engine.contextTokens).toBe(8_192);

    const silent = await setup({ replies: ['Hi.'] });
    await silent.engine.load(() => {});
    await replyOf(silent.engine.model.stream(ask('Hi')));
    expect(silent.engine.contextTokens).toBeUndefined();
  });

  it('asks a server only its own way to say its context, where its model list says which server it is, and reads a list that gives it', async () => {
    const routes = (asked: readonly string[]) => asked.filter((path) => path !== '/v1/models');
    const llamaCpp = await setup({ replies: [], saysContext: { as: 'llama.cpp', tokens: 8_192 } });
    await llamaCpp.engine.load(() => {});
    expect(routes(llamaCpp.server.asked)).toEqual(['/props']);
    const lmStudio = await setup({ replies: [], models: ['qwen/qwen3-4b'], saysContext: { as: 'lm-studio', tokens: 16_384 } });
    await lmStudio.engine.load(() => {});
    expect(routes(lmStudio.server.asked)).toEqual(['/api/v0/models/qwen%2Fqwen3-4b']);
    expect(lmStudio.engine.contextTokens).toBe(16_384);
    // Ollama says it only once a model is loaded: asked on connecting, and after each reply.
    const ollama = await setup({ replies: ['Hi.', 'Hello.'], saysContext: { as: 'ollama', tokens: 4_096 } });
    await ollama.engine.load(() => {});
    await replyOf(ollama.engine.model.stream(ask('Hi')));
    await expect.poll(() => ollama.engine.contextTokens).toBe(4_096);
    expect(routes(ollama.server.asked)).toEqual(['/api/ps', '/api/ps']);

    // vLLM and SGLang give it in the list (`max_model_len`).
    for (const [ownedBy, modelFields] of [
      ['vllm', { max_model_len: 32_768 }],
      ['sglang', { max_model_len: 32_768, root: 'Qwen/Qwen3-1.7B' }],
    ] as const) {
      const { engine, server } = await setup({ replies: ['Hi.'], models: ['Qwen/Qwen3-1.7B'], ownedBy, modelFields });
      const progress: EngineLoadProgress[] = [];
      await engine.load((event) => progress.push(event));
      expect(engine.contextTokens, ownedBy).toBe(32_768);
      expect(progress.at(-1)?.text).toBe(`Connected to ${new URL(server.address).host}: Qwen/Qwen3-1.7B (a 32,768-token context).`);
      await replyOf(engine.model.stream(ask('Hi')));
      expect(routes(server.asked), ownedBy).toEqual([]);
    }
    // vLLM without the figure is not asked other servers' ways either.
    const vllm = await setup({ replies: ['Hi.'], models: ['Qwen/Qwen3-1.7B'], ownedBy: 'vllm' });
    await vllm.engine.load(() => {});
    await replyOf(vllm.engine.model.stream(ask('Hi')));
    expect(vllm.engine.contextTokens).toBeUndefined();
    expect(routes(vllm.server.asked)).toEqual([]);

    // llama.cpp's list gives the trained maximum (`meta.n_ctx_train`), not what it runs with: `/props` says that.
    const trained = await setup({ replies: [], saysContext: { as: 'llama.cpp', tokens: 4_096 }, modelFields: { meta: { n_ctx_train: 40_960 } } });
    await trained.engine.load(() => {});
    expect(trained.engine.contextTokens).toBe(4_096);

    // A list whose ids look like Ollama's (a proxy's) is asked Ollama's way on connecting and after the
    // first reply, not after every reply once it never answered.
    const proxy = await setup({ replies: ['Hi.', 'Hello.', 'Hey.'], ownedBy: 'openai' });
    await proxy.engine.load(() => {});
    for (const request of ['Hi', 'Hello', 'Hey']) await replyOf(proxy.engine.model.stream(ask(request)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(routes(proxy.server.asked)).toEqual(['/api/ps', '/api/ps']);

    // A server whose list does not say which it is is asked each way, on connecting and after its first reply.
    const unknown = await setup({ replies: ['Hi.'], models: ['local-model'], ownedBy: 'system' });
    await unknown.engine.load(() => {});
    await replyOf(unknown.engine.model.stream(ask('Hi')));
    await expect.poll(() => unknown.server.asked.length).toBe(7);
    expect(new Set(routes(unknown.server.asked))).toEqual(new Set(['/props', '/api/ps', '/api/v0/models/local-model']));
  });

  it("reads a vLLM adapter's context from its base model's entry", async () => {
    const list = {
      object: 'list',
      data: [
        { id: 'Qwen/Qwen3-1.7B', object: 'model', owned_by: 'vllm', root: 'Qwen/Qwen3-1.7B', parent: null, max_model_len: 32_768 },
        { id: 'shop-lora', object: 'model', owned_by: 'vllm', root: '/adapters/shop', parent: 'Qwen/Qwen3-1.7B' },
      ],
    };
    const fetchList: typeof fetch = async () => new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } });
    const read = await readServerModels('http://127.0.0.1:8000/v1', { fetch: fetchList });
    expect(read).toMatchObject({ ids: ['Qwen/Qwen3-1.7B', 'shop-lora'], kind: 'vllm' });
    expect([...read.contexts]).toEqual([['Qwen/Qwen3-1.7B', 32_768], ['shop-lora', 32_768]]);
  });

  it("forgets a model's context once another model is connected to, which runs with its own", async () => {
    // Ollama says the context of the model it has loaded, only.
    const models = ['qwen3:1.7b', 'llama3.2:3b'];
    const says = { as: 'ollama' as const, tokens: 2_048 };
    const { engine } = await setup({ models, replies: ['Hi.', 'Hello.'], saysContext: says });
    await engine.load(() => {});
    await replyOf(engine.model.stream(ask('Hi')));
    await expect.poll(() => engine.contextTokens).toBe(2_048);
    // The model is removed on the server: the next reply fails, and the next load connects to the other one.
    models.splice(0, 1);
    expect((await replyOf(engine.model.stream(ask('Hello')))).error).toBeDefined();
    await engine.load(() => {});
    expect(engine.modelId).toBe('llama3.2:3b');
    expect(engine.contextTokens).toBeUndefined();
  });

  it('reads the address the way people type it', () => {
    expect(normalizeServerAddress('http://localhost:11434')).toBe('http://localhost:11434/v1');
    expect(normalizeServerAddress(' http://localhost:1234/v1/ ')).toBe('http://localhost:1234/v1');
    // host:port without a scheme is what a person types for a server on this machine: it speaks http.
    expect(normalizeServerAddress('localhost:11434')).toBe('http://localhost:11434/v1');
    expect(normalizeServerAddress('127.0.0.1:11555')).toBe('http://127.0.0.1:11555/v1');
    expect(normalizeServerAddress('my-box:8080/v1/')).toBe('http://my-box:8080/v1');
    // An endpoint pasted from a server's docs is cut back to the API root it is under.
    expect(normalizeServerAddress('http://localhost:11434/v1/chat/completions')).toBe('http://localhost:11434/v1');
    expect(normalizeServerAddress('localhost:8080/v1/models/')).toBe('http://localhost:8080/v1');
    expect(normalizeServerAddress('http://localhost:1234/v1/completions')).toBe('http://localhost:1234/v1');
    expect(normalizeServerAddress('http://localhost:3000/api/chat/completions')).toBe('http://localhost:3000/api');
    // What is not an address is refused with the extension's own words.
    for (const typo of ['olama', 'not an address', 'ftp://localhost:11434', 'localhost:', '']) {
      expect(() => normalizeServerAddress(typo)).toThrow(EngineError);
    }
    expect(() => normalizeServerAddress('olama')).toThrow('"olama" is not a server address.');
    // A stray space, which Chrome's URL would keep in the host as "%20" and send the request there.
    for (const spaced of ['http://127.0.0.1 :8080/v1', 'local host:11434', 'localhost:11434/ v1']) {
      expect(() => normalizeServerAddress(spaced), spaced).toThrow(`"${spaced}" is not a server address: it has a space in it.`);
    }
    // A "*", which Chrome's URL would keep in the host as "%2A".
    for (const wild of ['http://*.local:8080/v1', '*.lan:11434', 'http://gpu-*:8080']) {
      expect(() => normalizeServerAddress(wild), wild).toThrow(`"${wild}" is not a server address: a server is one host, and "*" names none.`);
    }
  });

  it('refuses a port Chrome never connects to, where a connection would only fail as if no server ran', () => {
    for (const address of ['http://127.0.0.1:1/v1', 'localhost:6000', 'https://gpu-box.lan:10080/v1', 'localhost:0']) {
      expect(() => normalizeServerAddress(address), address).toThrow(/^Chrome does not connect to port \d+: it keeps that port closed to web pages and extensions\.$/);
    }
    try {
      normalizeServerAddress('localhost:6000');
    } catch (error) {
      expect((error as EngineError).hint).toBe("Start the server on another port (Ollama's is 11434, LM Studio's 1234, llama.cpp's 8080) and enter that address in the options.");
    }
    expect(normalizeServerAddress('localhost:6001')).toBe('http://localhost:6001/v1');
    expect(normalizeServerAddress('http://gpu-box.lan:80/v1')).toBe('http://gpu-box.lan/v1');
  });
});

describe('local server engine: thinking, limits and replies that never finish', () => {
  // Short enough to keep the tests quick, long enough that a busy machine's pauses are not silences.
  const quick: Partial<ReplyTimeouts> = { firstByteMs: 1_000, firstBytePerPromptTokenMs: 0, betweenChunksMs: 600 };

  it('asks for at most 1,024 tokens and, for Qwen3, no thinking, the ways Ollama, llama.cpp and LM Studio read it', async () => {
    const qwen = await setup({ replies: ['Hi.'] });
    await qwen.engine.load(() => {});
    expect((await replyOf(qwen.engine.model.stream(ask('Hi')))).text).toBe('Hi.');
    expect(qwen.server.requests[0]).toMatchObject({
      max_tokens: 1024,
      chat_template_kwargs: { enable_thinking: false },
      reasoning_effort: 'none',
    });

    const llama = await setup({ replies: ['Hi.'] }, { model: 'llama3.2:3b' });
    await llama.engine.load(() => {});
    await replyOf(llama.engine.model.stream(ask('Hi')));
    expect(llama.server.requests[0]).toMatchObject({ max_tokens: 1024 });
    expect(llama.server.requests[0]).not.toHaveProperty('chat_template_kwargs');
    expect(llama.server.requests[0]).not.toHaveProperty('reasoning_effort');
  });

  it('asks once more without reasoning_effort when the server refuses it, and does not send it again', async () => {
    const { engine, server } = await setup({ replies: ['First.', 'Second.'], refuseReasoningEffort: true });
    await engine.load(() => {});
    const first = await replyOf(engine.model.stream(ask('Hi')));
    expect(first.error).toBeUndefined();
    expect(first.text).toBe('First.');
    expect((await replyOf(engine.model.stream(ask('Again')))).text).toBe('Second.');
    expect(server.refused).toHaveLength(1);
    expect(server.refused[0]).toMatchObject({ reasoning_effort: 'none' });
    for (const request of server.requests) {
      expect(request).not.toHaveProperty('reasoning_effort');
      expect(request).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    }
  });

  it('asks again without each optional field a strict server refuses, by name, and does not send it again', async () => {
    for (const as of ['openai', 'fastapi'] as const) {
      const { engine, server } = await setup({ replies: ['First.', 'Second.'], refuseFields: { fields: ['stream_options', 'chat_template_kwargs', 'reasoning_effort'], as } });
      await engine.load(() => {});
      const first = await replyOf(engine.model.stream(ask('Hi')));
      expect(first.error).toBeUndefined();
      expect(first.text).toBe('First.');
      expect((await replyOf(engine.model.stream(ask('Again')))).text).toBe('Second.');
      // One refusal a field, the first request only.
      expect(server.refused).toHaveLength(3);
      for (const request of server.requests) expect(Object.keys(request).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'temperature']);
    }
  });

  it('leaves out no field a refusal only quotes back: a FastAPI app\'s 422 for a missing field holds the whole request', async () => {
    const sent: Record<string, unknown>[] = [];
    const quoting: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/models')) return new Response(JSON.stringify({ data: [{ id: 'qwen3:1.7b' }] }), { headers: { 'content-type': 'application/json' } });
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      sent.push(body);
      return new Response(JSON.stringify({ detail: [{ type: 'missing', loc: ['body', 'user'], msg: 'Field required', input: body }] }), { status: 422 });
    };
    const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: 'http://127.0.0.1:8/v1', model: 'qwen3:1.7b' }, { fetch: quoting });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.error).toMatchObject({ message: 'The server at 127.0.0.1:8 answered HTTP 422: Field required (body.user).' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ stream_options: { include_usage: true }, chat_template_kwargs: { enable_thinking: false }, reasoning_effort: 'none' });
  });

  it('gives a refusal that names no field it can leave out in the server\'s words, a FastAPI app\'s detail included', async () => {
    const { engine } = await setup({ replies: ['First.'], refuseFields: { fields: ['temperature'], as: 'fastapi' } });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.error).toMatchObject({ name: 'EngineError', message: expect.stringMatching(/answered HTTP 422: Extra inputs are not permitted \(body\.temperature\)\.$/) });
  });

  it('counts the model\'s reasoning as the server answering: it waits through it, and times out only after it stops', async () => {
    // Sixteen thoughts 100 ms apart take longer than the 1 s allowed for the first byte.
    const thinking = { chunks: 16, intervalMs: 100 };
    const { engine } = await setup({ replies: ['Done.'], reasoning: thinking }, {}, quick);
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.error).toBeUndefined();
    expect(reply.text).toBe('Done.');
    expect(reply.chunks.at(-1)?.type).toBe('usage');
    // Each thought as it comes, before the words: whoever shows the reply can say the model thinks, and the trace keeps them.
    expect(reply.chunks[0]?.type).toBe('thinking');
    expect(thoughtsOf(reply)).toEqual(Array.from({ length: 16 }, (_, index) => `Thinking step ${index}. `));

    const silent = await setup({ replies: ['Never sent.'], reasoning: thinking, stall: { afterDeltas: 0 } }, {}, quick);
    await silent.engine.load(() => {});
    const stalled = await replyOf(silent.engine.model.stream(ask('Hi')));
    expect(stalled.error).toMatchObject({
      code: 'server-silent',
      message: `The server at ${new URL(silent.server.address).host} stopped answering in the middle of a reply (nothing for 0.6 seconds).`,
    });
  });

  it('waits for the first byte longer the longer the prompt, as a server on a CPU reads it first', async () => {
    // About 1,500 tokens read at 1,000 a second: 1.5 s, past the 1 s allowed a short prompt.
    const long = ask('Tell me about the mug. '.repeat(260));
    const slow = { replies: ['People like it.'], promptTokensPerSecond: 1_000 };
    const scaled = await setup(slow, {}, { ...quick, firstBytePerPromptTokenMs: 2 });
    await scaled.engine.load(() => {});
    const reply = await replyOf(scaled.engine.model.stream(long));
    expect(reply.error).toBeUndefined();
    expect(reply.text).toBe('People like it.');

    const flat = await setup(slow, {}, { ...quick, firstBytePerPromptTokenMs: 0 });
    await flat.engine.load(() => {});
    expect((await replyOf(flat.engine.model.stream(long))).error).toMatchObject({ code: 'server-silent' });
    // By default: 2 minutes to load the model, and then 3 min 20 s to read a 4,000-token prompt on a CPU.
    expect(timeoutsForPrompt(defaultReplyTimeouts, 4_000).firstByteMs).toBe(320_000);
  });

  describe('a reply that writes the same call over and over', () => {
    const add = (slug: string) => `<tool_call>{"name": "add_to_cart", "arguments": {"slug": "${slug}", "qty": 1}}</tool_call>\n`;
    async function runLooping(options: FakeOllamaOptions) {
      const { engine } = await setup(options);
      await engine.load(() => {});
      const { result, events } = await runShopRequest(engine, 'add a mug');
      const usage = events.flatMap((event) => (event.type === 'step-end' ? [event.usage] : []))[0];
      return { result, ran: events.filter((event) => event.type === 'tool-result'), usage };
    }

    it("keeps the server's figures for a reply its length limit cut inside a fourth copy, whose call runs once", async () => {
      for (const answerAs of [undefined, 'whole-json' as const]) {
        const { result, ran, usage } = await runLooping({ replies: [add('x'.repeat(1100)).repeat(6), 'A mug is in your cart.'], chunkSize: 5, lengthLimitTokens: 1024, ...(answerAs ? { answerAs } : {}) });
        expect(result.finishReason).toBe('answer');
        expect(ran).toHaveLength(1);
        expect(usage).toMatchObject(answerAs ? { promptTokens: 12, completionTokens: 5 } : { promptTokens: expect.any(Number), completionTokens: 1024 });
      }
    });

    it('gives no token count for one hung up on as a fourth copy closed, as the server never said one', async () => {
      const { result, ran, usage } = await runLooping({ replies: [add('enamel-mug').repeat(8), 'A mug is in your cart.'], chunkSize: 5 });
      expect(result.finishReason).toBe('answer');
      expect(ran).toHaveLength(1);
      expect(usage).toEqual({ timeToFirstTokenMs: expect.any(Number) });
    });
  });

  describe('a model whose template opens its thought in the prompt, on a server that does not take reasoning apart', () => {
    // DeepSeek-R1's template ends the prompt with `<think>`: the model writes only the tag that closes it.
    const thought = 'The person wants a mug. The forest one is in stock.';
    const textDeltas = (reply: { chunks: ModelChunk[] }) => reply.chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.text] : []));

    it("takes its later replies' text up to </think> as thoughts, as a server's separate reasoning, once one reply showed it", async () => {
      const { engine } = await setup({ models: ['deepseek-r1-distill-qwen-7b'], replies: [`${thought}</think>\n\nTake the forest mug.`, `${thought}</think>\n\nIt is in stock.`] });
      await engine.load(() => {});
      // The first reply teaches it: its text is what the model wrote, tag and all.
      const first = await replyOf(engine.model.stream(ask('Which mug?')));
      expect(first.text).toBe(`${thought}</think>\n\nTake the forest mug.`);
      const second = await replyOf(engine.model.stream(ask('Is it in stock?')));
      expect(second.error).toBeUndefined();
      expect(second.chunks[0]?.type).toBe('thinking');
      // The thought is given whole, as its tag closes it, for the trace.
      expect(thoughtsOf(second)).toEqual([thought.trim()]);
      // No word of the thought is ever given as the reply's text, streamed or at its end.
      expect(textDeltas(second).join('')).toBe('It is in stock.');
      expect(textDeltas(second).some((text) => text.includes('mug'))).toBe(false);
    });

    it('gives a later reply that never closes a thought as the answer at its end, and stops taking the model for one that opens in the prompt', async () => {
      const { engine } = await setup({ models: ['deepseek-r1-distill-qwen-7b'], replies: [`${thought}</think>Take the forest mug.`, 'Yes, it is in stock.', `${thought}</think>Done.`] });
      await engine.load(() => {});
      await replyOf(engine.model.stream(ask('Which mug?')));
      const plain = await replyOf(engine.model.stream(ask('Is it in stock?')));
      expect(plain.error).toBeUndefined();
      expect(plain.text).toBe('Yes, it is in stock.');
      expect(plain.chunks.at(-1)?.type).toBe('usage');
      // Not learned any more: the next reply streams as it comes, and teaches it again.
      const again = await replyOf(engine.model.stream(ask('Thanks')));
      expect(again.text).toBe(`${thought}</think>Done.`);
    });

    it('says a later reply cut off before its </think> was spent thinking', async () => {
      const long = 'I weigh each mug in turn. '.repeat(40);
      const { engine } = await setup({ models: ['deepseek-r1-distill-qwen-7b'], replies: [`${thought}</think>Take the forest mug.`, `${long}</think>The forest one.`], lengthLimitTokens: 100 });
      await engine.load(() => {});
      await replyOf(engine.model.stream(ask('Which mug?')));
      const cut = await replyOf(engine.model.stream(ask('Why?')));
      expect(cut.text).toBe('');
      expect(cut.error).toMatchObject({ code: 'thinking-cut-off' });
      // What it thought until the cut is kept as thoughts.
      expect(thoughtsOf(cut).join('')).toMatch(/^I weigh each mug in turn\. I weigh/);
    });

    it('keeps what a later reply thought before its connection broke, for the trace', async () => {
      const long = 'I weigh each mug in turn. '.repeat(10);
      const { engine } = await setup({ models: ['deepseek-r1-distill-qwen-7b'], replies: [`${thought}</think>Take the forest mug.`, `${long}</think>The forest one.`], cut: { afterDeltas: 20, how: 'break' } });
      await engine.load(() => {});
      await replyOf(engine.model.stream(ask('Which mug?'))).catch(() => {});
      const broken = await replyOf(engine.model.stream(ask('Why?')));
      expect(broken.error).toBeDefined();
      expect(thoughtsOf(broken).join('')).toMatch(/^I weigh each mug in turn\./);
    });

    it('reads a reply that opens its own <think> as it comes, for a model taught otherwise', async () => {
      const { engine } = await setup({ models: ['deepseek-r1-distill-qwen-7b'], replies: [`${thought}</think>Take the forest mug.`, `<think>${thought}</think>Take it.`] });
      await engine.load(() => {});
      await replyOf(engine.model.stream(ask('Which mug?')));
      const own = await replyOf(engine.model.stream(ask('Which one again?')));
      expect(own.text).toBe(`<think>${thought}</think>Take it.`);
    });
  });

  it('says the model used up its reply length thinking, not "ask for something shorter", when its thoughts streamed apart reach the limit before any text', async () => {
    // Ollama's gpt-oss or deepseek-r1, llama.cpp with --reasoning-format: thoughts in `delta.reasoning`, never in the text.
    const { engine } = await setup({ models: ['gpt-oss:20b'], replies: [''], reasoning: { chunks: 3, intervalMs: 1, toTheLimit: true } }, {}, quick);
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Add a mug to my cart')));
    expect(reply.error).toMatchObject({
      code: 'thinking-cut-off',
      message: 'The model used up its reply length while it was still thinking, so it gave no answer.',
      hint: 'Ask for something simpler, raise "Longest reply" in the options, or pick a model there that does not think first (or turn thinking off on the server that runs it).',
    });
    expect(describeFailure(reply.error).hint).toBe('Pick a model that does not think first, or turn thinking off on the server that runs it, then press Try it again.');

    // The panel's notice for the run is the one it gives a `<think>` never closed, though the reply's text is empty.
    const result = await runLocalAgent({ request: 'Add a mug to my cart', history: [], model: engine.model, format: engine.format, getTools: () => [], executeTool: async () => ({ text: '' }) });
    expect(thinkingCutOffNotice(result, '')).toEqual({
      notice:
        'The model used up its reply length while it was still thinking, so it gave no answer. Ask for something simpler, raise "Longest reply" in the options, or pick a model there that does not think first (or turn thinking off on the server that runs it).',
      askAgain: false,
    });
  });

  it('gives up with what to do when the server sends nothing before the first-byte timeout', async () => {
    const { engine, server } = await setup({ replies: ['Never sent.'], stall: 'before-headers' }, {}, quick);
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.error).toBeInstanceOf(EngineError);
    expect(reply.error).toMatchObject({
      code: 'server-silent',
      message: `The server at ${new URL(server.address).host} did not start answering within 1 second.`,
      hint: "It may still be loading the model, or be busy with another request. Check the server's own log, then send your request again.",
    });
    await expect.poll(() => server.closedByClient).toHaveLength(1);
  });

  it('gives up with what to do when the server stops sending in the middle of a reply, and hangs up', async () => {
    const { engine, server } = await setup({ replies: ['Hello there, how are you?'], stall: { afterDeltas: 2 } }, {}, quick);
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.text).toBe('Hello there,');
    expect(reply.error).toBeInstanceOf(EngineError);
    expect(reply.error).toMatchObject({
      code: 'server-silent',
      message: `The server at ${new URL(server.address).host} stopped answering in the middle of a reply (nothing for 0.6 seconds).`,
      hint: "Check the server's own log, then send your request again.",
    });
    await expect.poll(() => server.closedByClient).toHaveLength(1);
  });

  it('says the server closed the connection mid-reply instead of passing half a tool call for the answer', async () => {
    const call = '<tool_call>\n{"name": "add_to_cart", "arguments": {"qty": 2}}\n</tool_call>';
    const { engine, server } = await setup({ replies: [call], cut: { afterDeltas: 4, how: 'close' } });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Add two')));
    expect(reply.text).toBe(call.slice(0, 24));
    expect(reply.chunks.some((chunk) => chunk.type === 'usage')).toBe(false);
    expect(reply.error).toBeInstanceOf(EngineError);
    expect(reply.error).toMatchObject({
      code: 'unavailable',
      message: `The server at ${new URL(server.address).host} closed the connection in the middle of a reply.`,
    });
    expect((reply.error as EngineError).hint).toContain('Send your request again');
  });

  it('says the connection broke mid-reply, with a hint, instead of a bare network error', async () => {
    const { engine, server } = await setup({ replies: ['A reply the server never finishes.'], cut: { afterDeltas: 2, how: 'break' } });
    await engine.load(() => {});
    const reply = await replyOf(engine.model.stream(ask('Hi')));
    expect(reply.text).toBe('A reply the ');
    expect(reply.error).toBeInstanceOf(EngineError);
    expect(reply.error).toMatchObject({
      code: 'server-down',
      message: `The connection to the server at ${new URL(server.address).host} broke in the middle of a reply.`,
      hint: "The server may have stopped or run out of memory. Check the server's own log, then send your request again.",
    });
  });
});
