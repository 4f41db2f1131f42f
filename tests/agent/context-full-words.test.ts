import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDescriptor } from '@webmcp-agents/chat';
import { estimateMessageTokens, hermesFormat, type LanguageModel } from '@webmcp-agents/local-agent';
import type { ActiveRun, TabRunHost } from '../../lib/agent/active-run';
import type { AgentWorld } from '../../lib/agent/agent-world';
import { fitHistory } from '../../lib/agent/fit-history';
import { runTabAgent } from '../../lib/agent/run-tab-agent';
import { withContextFullWords } from '../../lib/agent/context-full-words';
import { contextFull, type Engine } from '../../lib/engines/engine';
import { defaultSettings } from '../../lib/settings/settings-schema';

const tools: ToolDescriptor[] = [{ name: 'get_cart', description: 'Show the cart.', inputSchema: { type: 'object', properties: {} } }];

// A WebLLM model of 4,096 tokens: a prompt longer than that fails as WebLLM's does.
const model = {
  async *stream({ messages }: { messages: ChatMessage[] }) {
    const tokens = messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
    if (tokens > 4096) throw contextFull('Qwen3-1.7B', 4096);
    yield { type: 'text-delta', text: 'Here is a summary.' };
  },
} as unknown as LanguageModel;

const engine = { id: 'webllm', modelId: 'Qwen3-1.7B', format: hermesFormat, model, contextTokens: 4096 } as unknown as Engine;

/**
 * A model at a local server (OpenAI-compatible) that did not say its context on connecting: the
 * engine does not know it, and the server's refusal above `context` tokens names it where `named`.
 */
function serverEngine(context: number, named: boolean): Engine {
  const serverModel = {
    async *stream({ messages }: { messages: ChatMessage[] }) {
      const tokens = messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
      if (tokens > context) throw contextFull('llama3 at localhost', named ? context : undefined);
      yield { type: 'text-delta', text: 'Here is a summary.' };
    },
  } as unknown as LanguageModel;
  return { id: 'openai', modelId: 'llama3', format: hermesFormat, model: serverModel } as unknown as Engine;
}

function run(request: string, history: ChatMessage[], chosen = engine, active = { controller: new AbortController(), approvals: new Map(), readUntrusted: false } as unknown as ActiveRun) {
  const world = {
    loadSettings: async () => defaultSettings,
    getTabTools: async () => ({ url: 'https://shop.example/', origin: 'https://shop.example', tools }),
    settleTools: async () => {},
    scorerFor: () => undefined,
    isSiteAllowed: async () => false,
  } as unknown as AgentWorld;
  const host = { tabId: 1, world, toolRan: false, isActive: () => true, stop: () => {}, agentTurnedOff: () => {}, documentChanged: () => {} } as TabRunHost;
  return runTabAgent(host, request, { history, recentTools: [] }, defaultSettings, chosen, active, 'https://shop.example', () => {}, () => {});
}

const serverAdvice = (tokens = 8192) =>
  `run the model with a larger context on your server (llama.cpp: llama-server -c ${tokens}; Ollama: OLLAMA_CONTEXT_LENGTH=${tokens}; LM Studio: its context length when loading the model), or pick a model with more context in the options.`;

describe('a request longer than the model reads at once', () => {
  it('is said to be too long, with the way to shorten it, not to start a new chat', async () => {
    const history = fitHistory([{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hi! How can I help?' }], 4096);
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(800);
    const result = await run(`Summarise this article for me: ${article}`, history);
    expect(result.finishReason).toBe('error');
    expect(result.error?.code).toBe('context-full');
    expect(result.error?.message).toMatch(/^Your request is too long for this model, about [\d,]+ tokens of the 4,096 it reads at once\.$/);
    expect(result.error?.hint).toBe('Shorten it, or pick a model with more context in the options.');
  });

  it('marks the run, so that its turn offers to put the request back in the box; a first request that does not fit is not marked', async () => {
    const active = { controller: new AbortController(), approvals: new Map(), readUntrusted: false } as unknown as ActiveRun;
    await run(`Summarise this article for me: ${'The quick brown fox jumps over the lazy dog. '.repeat(800)}`, [], engine, active);
    expect(active.requestTooLong).toBe(true);
    const first = { controller: new AbortController(), approvals: new Map(), readUntrusted: false } as unknown as ActiveRun;
    await run('Summarise my cart.', [], serverEngine(100, true), first);
    expect(first.requestTooLong).toBeUndefined();
  });

  it('names the context the engine\'s error gives where the engine did not know it when the run began, and how a server gives more', async () => {
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(1000);
    const result = await run(`Summarise this article for me: ${article}`, [], serverEngine(8192, true));
    expect(result.error?.message).toMatch(/^Your request is too long for this model, about [\d,]+ tokens of the 8,192 it reads at once\.$/);
    // Twice the context it has: never the one it already runs with.
    expect(result.error?.hint).toBe(`Shorten it, or ${serverAdvice(16384)}`);
  });

  it('names no context where neither the engine nor its error knows it', async () => {
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(800);
    const result = await run(`Summarise this article for me: ${article}`, [], serverEngine(4096, false));
    expect(result.error?.message).toMatch(/^Your request is too long for this model, about [\d,]+ tokens\.$/);
    expect(result.error?.hint).toBe(`Shorten it, or ${serverAdvice()}`);
  });

  it('leaves a short request that fits to its answer', async () => {
    const result = await run('Summarise my cart.', []);
    expect(result.finishReason).toBe('answer');
    expect(result.error).toBeUndefined();
  });

  it('keeps the engine\'s words where the request is short and the chat had earlier messages, or the tools gave results', () => {
    const error = { name: 'EngineError', code: 'context-full', message: 'This conversation no longer fits in the 4,096-token context of Qwen3-1.7B.', hint: 'Start a new chat.' };
    const result = { finishReason: 'error' as const, text: '', steps: 1, messages: [], error };
    const asked = { request: 'Summarise my cart.', contextTokens: 4096, engineId: 'webllm' as const };
    expect(withContextFullWords(result, { ...asked, history: [{ role: 'user', content: 'hello' }] })).toEqual({ result, tooLong: false });
  });

  it('blames what the page\'s tools returned, not the conversation, where a chat\'s first request filled the context at a later step', () => {
    const error = { name: 'EngineError', code: 'context-full', message: 'This conversation no longer fits in the 4,096-token context of Qwen3-1.7B.', hint: 'Start a new chat.' };
    const result = { finishReason: 'error' as const, text: '', steps: 3, messages: [], error };
    const { result: worded } = withContextFullWords(result, { request: 'List the catalogue.', contextTokens: 4096, engineId: 'webllm', history: [] });
    expect(worded.error).toMatchObject({
      code: 'context-full',
      message: "What the page's tools returned does not fit in the 4,096-token context of this model, beside the page's tools and the agent's instructions.",
      hint: 'Lower "Characters of a tool\'s output the model reads", or pick a model with more context in the options.',
    });
  });

  it('says a first request does not fit even alone, blaming the tools and instructions, not the conversation', async () => {
    // A server started with a small context: the tools and the instructions alone fill it.
    const result = await run('Summarise my cart.', [], serverEngine(100, true));
    expect(result.error?.code).toBe('context-full');
    expect(result.error?.message).toBe(
      "Even with nothing before it, this request does not fit in the 100-token context of this model: the page's tools and the agent's instructions take most of it.",
    );
    expect(result.error?.hint).toBe(`Give it more room: ${serverAdvice()}`);
  });

  it('offers a lower "Longest reply" where the room the prompt keeps for the reply could give some back, as a small context of vLLM needs', () => {
    const error = { name: 'EngineError', code: 'context-full', message: 'This conversation no longer fits in the 2,048-token context of "qwen3".', hint: 'Start a new chat.' };
    const result = { finishReason: 'error' as const, text: '', steps: 1, messages: [], error };
    const asked = { request: 'Summarise my cart.', contextTokens: 2048, engineId: 'openai' as const, history: [] };
    const { result: worded } = withContextFullWords(result, { ...asked, replyTokens: 1024 });
    expect(worded.error?.hint).toBe(`Give it more room: lower "Longest reply" in the options (the prompt keeps 1,024 tokens of the context for the reply), or ${serverAdvice()}`);
    // Where "Longest reply" is at its lowest already, it is not offered.
    expect(withContextFullWords(result, { ...asked, replyTokens: 256 }).result.error?.hint).toBe(`Give it more room: ${serverAdvice()}`);
  });

  it("keeps a server's own limit on the prompt alone, which no larger context raises (Text Generation Inference)", async () => {
    const limited = {
      async *stream(): AsyncGenerator<never> {
        throw contextFull('"qwen3"', 2_048 + 1_024, 2_048);
      },
    } as unknown as LanguageModel;
    const result = await run('Summarise my cart.', [], { id: 'openai', modelId: 'qwen3', format: hermesFormat, model: limited } as unknown as Engine);
    expect(result.error).toMatchObject({
      code: 'context-full',
      message: 'This conversation no longer fits in the 2,048 prompt tokens the server allows "qwen3".',
    });
    expect(result.error?.hint).toContain('start the server with a higher limit on the prompt');
    expect(result.error?.hint).not.toContain('OLLAMA_CONTEXT_LENGTH');
  });

  it("says a request is too long where it alone takes over half a server's limit on the prompt, and how to raise the limit", async () => {
    const limited = {
      async *stream(): AsyncGenerator<never> {
        throw contextFull('"qwen3"', 2_048 + 1_024, 2_048);
      },
    } as unknown as LanguageModel;
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(150);
    const history: ChatMessage[] = [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hi! How can I help?' }];
    const result = await run(`Summarise this article for me: ${article}`, history, { id: 'openai', modelId: 'qwen3', format: hermesFormat, model: limited } as unknown as Engine);
    expect(result.error?.code).toBe('context-full');
    expect(result.error?.message).toMatch(/^Your request is too long for this server, about [\d,]+ tokens of the 2,048 it takes in a prompt\.$/);
    expect(result.error?.hint).toBe('Shorten it, or start the server with a higher limit on the prompt (Text Generation Inference: --max-input-tokens).');
  });
});
