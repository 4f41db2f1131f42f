import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDescriptor } from '@webmcp-agents/chat';
import { estimateMessageTokens, hermesFormat, type LanguageModel } from '@webmcp-agents/local-agent';
import type { ActiveRun, TabRunHost } from '../../lib/agent/active-run';
import type { AgentWorld } from '../../lib/agent/agent-world';
import { fitHistory } from '../../lib/agent/fit-history';
import { runTabAgent } from '../../lib/agent/run-tab-agent';
import { withRequestTooLong } from '../../lib/agent/with-request-too-long';
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

function run(request: string, history: ChatMessage[], chosen = engine) {
  const world = {
    loadSettings: async () => defaultSettings,
    getTabTools: async () => ({ url: 'https://shop.example/', origin: 'https://shop.example', tools }),
    settleTools: async () => {},
    scorerFor: () => undefined,
    isSiteAllowed: async () => false,
  } as unknown as AgentWorld;
  const host = { tabId: 1, world, toolRan: false, isActive: () => true, stop: () => {}, documentChanged: () => {} } as TabRunHost;
  const active = { controller: new AbortController(), approvals: new Map(), readUntrusted: false } as unknown as ActiveRun;
  return runTabAgent(host, request, { history, recentTools: [] }, defaultSettings, chosen, active, 'https://shop.example', () => {}, () => {});
}

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

  it('names the context the engine\'s error gives where the engine did not know it when the run began', async () => {
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(1000);
    const result = await run(`Summarise this article for me: ${article}`, [], serverEngine(8192, true));
    expect(result.error?.message).toMatch(/^Your request is too long for this model, about [\d,]+ tokens of the 8,192 it reads at once\.$/);
    expect(result.error?.hint).toBe('Shorten it, or pick a model with more context in the options.');
  });

  it('names no context where neither the engine nor its error knows it', async () => {
    const article = 'The quick brown fox jumps over the lazy dog. '.repeat(800);
    const result = await run(`Summarise this article for me: ${article}`, [], serverEngine(4096, false));
    expect(result.error?.message).toMatch(/^Your request is too long for this model, about [\d,]+ tokens\.$/);
    expect(result.error?.hint).toBe('Shorten it, or pick a model with more context in the options.');
  });

  it('leaves a short request that fits to its answer', async () => {
    const result = await run('Summarise my cart.', []);
    expect(result.finishReason).toBe('answer');
    expect(result.error).toBeUndefined();
  });

  it('keeps the engine\'s words where the request is short: the conversation or the tools filled the context', () => {
    const error = { name: 'EngineError', code: 'context-full', message: 'This conversation no longer fits in the 4,096-token context of Qwen3-1.7B.', hint: 'Start a new chat.' };
    const result = { finishReason: 'error' as const, text: '', steps: 1, messages: [], error };
    expect(withRequestTooLong(result, 'Summarise my cart.', 4096)).toBe(result);
  });
});
