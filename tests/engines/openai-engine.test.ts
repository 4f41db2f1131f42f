import { afterEach, describe, expect, it } from 'vitest';
import { runLocalAgent, type AgentEvent, type ModelChunk } from '@webmcp-agents/local-agent';
import { EngineError, type EngineLoadProgress } from '../../lib/engines/engine';
import { createOpenAiEngine } from '../../lib/engines/openai/openai-engine';
import { normalizeServerAddress, serverPermissionPattern } from '../../lib/engines/openai/server-address';
import { defaultSettings, type Settings } from '../../lib/settings';
import { startFakeOllama, type FakeOllamaOptions } from './support/fake-ollama-server';
import { createInMemoryShop, shopReplies } from './support/in-memory-shop';

const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

/** Chrome sends the extension's origin with the service worker's requests; so does this fetch. */
const fetchFromExtension: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: extensionOrigin } });

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup(options: FakeOllamaOptions, settings: Partial<Settings> = {}, permission: boolean | undefined = true) {
  const server = await startFakeOllama(options);
  servers.push(server);
  const engine = createOpenAiEngine(
    { ...defaultSettings, openaiBaseUrl: server.address, ...settings },
    { fetch: fetchFromExtension, hasHostPermission: async () => permission },
  );
  return { server, engine };
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

    const shop = createInMemoryShop();
    const events: AgentEvent[] = [];
    const result = await runLocalAgent({
      request: 'Add two enamel mugs to my cart',
      model: engine.model,
      format: engine.format,
      getTools: () => shop.tools,
      executeTool: (call) => shop.executeTool(call),
      onEvent: (event) => events.push(event),
    });
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

  it('says the server is down and how to start it', async () => {
    const { server, engine } = await setup({ replies: [] }, {}, false);
    await server.close();
    servers = [];
    const error = await loadError(engine.load(() => {}));
    expect(error.code).toBe('server-down');
    expect(error.message).toBe(`No server answers at ${server.address}.`);
    expect(error.hint).toContain('ollama serve');
    expect(error.hint).toContain('not yet allowed to reach it');
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
    const { engine } = await setup({ replies: ['word '.repeat(100)], lengthLimitTokens: 20 });
    await engine.load(() => {});
    const request = { messages: [{ role: 'user' as const, content: 'Write a lot' }], tools: [], signal: new AbortController().signal };
    const error = await (async () => {
      for await (const _chunk of engine.model.stream(request) as AsyncIterable<ModelChunk>) void _chunk;
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'EngineError', code: 'reply-cut-off' });
  });

  it('shows the server\'s own message when it fails the reply with an error event, as llama.cpp does', async () => {
    const { engine } = await setup({ replies: ['unused'], errorEventMessage: 'the request exceeds the available context size' });
    await engine.load(() => {});
    const request = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: [], signal: new AbortController().signal };
    const error = await (async () => {
      for await (const _chunk of engine.model.stream(request) as AsyncIterable<ModelChunk>) void _chunk;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toContain('the request exceeds the available context size');
  });

  it('reads the address the way people type it', () => {
    expect(normalizeServerAddress('http://localhost:11434')).toBe('http://localhost:11434/v1');
    expect(normalizeServerAddress(' http://localhost:1234/v1/ ')).toBe('http://localhost:1234/v1');
    expect(serverPermissionPattern('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1/*');
    expect(() => normalizeServerAddress('localhost:11434')).toThrow(EngineError);
  });
});
