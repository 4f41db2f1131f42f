import { promptFormats, type ModelChunk, type ModelRequest } from '@webmcp-agents/local-agent';
import type { Settings } from '../../settings';
import { EngineError, type Engine } from '../engine';
import { formatForModelName } from '../model-catalog';
import { createServerMemory } from './chat-request';
import { firstChatModel } from './first-chat-model';
import { readServerModels, type ServerKind } from './list-server-models';
import { notConnected } from './server-errors';
import type { ReplyTimeouts } from './reply-timeouts';
import { readServerContext } from './server-context';
import { normalizeServerAddress, serverHost } from './server-address';
import { fetchWithKey } from './server-key';
import { streamOpenAiReply } from './stream-openai-reply';

export interface OpenAiEngineDependencies {
  fetch?: typeof fetch;
  /** How long a reply may wait for the server; tests shorten it. */
  replyTimeouts?: Partial<ReplyTimeouts>;
}

/**
 * A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp's server, vLLM, SGLang): the model
 * list from `/models`, replies streamed over SSE from `/chat/completions`.
 */
export function createOpenAiEngine(settings: Settings, dependencies: OpenAiEngineDependencies = {}): Engine {
  const fetchFunction = fetchWithKey(dependencies.fetch ?? ((input, init) => globalThis.fetch(input, init)), settings.openaiApiKey);
  let address: string | undefined;
  let model: string | undefined;
  // The model's context as the server says it. Ollama says it only while the model is loaded, and
  // loads it again with another context when another program asks for one: where the server said
  // nothing on connecting it is asked again after the first reply, and Ollama after each one.
  let contextTokens: number | undefined;
  // Which server it is, as its model list or the way it answered says: it is asked only its own way.
  let serverKind: ServerKind | undefined;
  // The way that gave the figure: Ollama's is asked again after each reply only once it has answered
  // (a list that only looks like Ollama's, a proxy's, would answer each reply's question with a 404).
  let contextFrom: ServerKind | undefined;
  const askContext = async (target: string, chosen: string, signal?: AbortSignal) => {
    const read = await readServerContext(target, chosen, { fetch: fetchFunction, ...(signal ? { signal } : {}), ...(serverKind ? { kind: serverKind } : {}) });
    if (read) [contextTokens, serverKind, contextFrom] = [read.tokens, read.from, read.from];
  };
  let contextAskedAfterReply = false;
  // Connected, and every reply since went through: the next load has nothing to ask. A reply that
  // fails (the server stopped, the model went) makes the next load connect again, and say why not.
  let connected = false;
  // What the server refused, so that each reply does not ask it twice.
  const memory = createServerMemory();

  return {
    id: 'openai',
    get modelId() {
      return model ?? (settings.model || 'the server\'s first model');
    },
    get format() {
      return promptFormats[formatForModelName(model ?? settings.model)];
    },
    get contextTokens() {
      return contextTokens;
    },
    model: {
      async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
        if (!address || !model) {
          throw notConnected();
        }
        try {
          yield* streamOpenAiReply(request, {
            address,
            model,
            temperature: settings.temperature,
            replyTokens: settings.replyTokens,
            fetch: fetchFunction,
            memory,
            ...(contextTokens === undefined ? {} : { contextTokens }),
            ...(dependencies.replyTimeouts ? { timeouts: dependencies.replyTimeouts } : {}),
          });
        } catch (error) {
          // A reply the person stopped says nothing of the server.
          if (!request.signal.aborted) connected = false;
          throw error;
        }
        if (contextFrom === 'ollama' || (contextTokens === undefined && !contextAskedAfterReply)) {
          contextAskedAfterReply = true;
          void askContext(address, model);
        }
      },
    },
    async load(onProgress, signal) {
      // Each request loads first: a server that answered the last one is not asked for its models again.
      if (connected) return;
      const target = normalizeServerAddress(settings.openaiBaseUrl);
      onProgress({ text: `Connecting to ${serverHost(target)}…` });
      const list = await readServerModels(target, { fetch: fetchFunction, ...(signal ? { signal } : {}) });
      const models = list.ids;
      // Tabs share this engine: with no model named, another tab's load must not switch a run in
      // progress to a new first model (Ollama lists the newest first), whose format may differ.
      const sameServer = address === target;
      const chosenBefore = model;
      const earlier = !settings.model && sameServer ? model : undefined;
      model = earlier !== undefined && models.includes(earlier) ? earlier : pickModel(settings.model, models, target);
      // Another model, or another server, runs with a context of its own: what was read of the last says nothing of it.
      if (!sameServer || model !== chosenBefore) [contextTokens, contextFrom, contextAskedAfterReply] = [undefined, undefined, false];
      address = target;
      serverKind = list.kind ?? (sameServer ? serverKind : undefined);
      const listed = list.contexts.get(model);
      if (listed === undefined) await askContext(target, model, signal);
      else contextTokens = listed;
      const context = contextTokens ? ` (a ${contextTokens.toLocaleString('en-US')}-token context)` : '';
      onProgress({ fraction: 1, text: `Connected to ${serverHost(target)}: ${model}${context}.`, fromCache: true });
      connected = true;
    },
  };
}

function pickModel(requested: string, models: readonly string[], address: string): string {
  if (models.length === 0) {
    throw new EngineError(
      'not-configured',
      `The server at ${serverHost(address)} has no models.`,
      'Get one there first (for Ollama, run ollama pull qwen3:1.7b; in LM Studio, load a model in its Developer tab), then send your request again.',
      'Get one there first (for Ollama, run ollama pull qwen3:1.7b; in LM Studio, load a model in its Developer tab), then press Connect again.',
    );
  }
  if (!requested) {
    const chat = firstChatModel(models);
    if (chat === undefined) throw noChatModel(address);
    return chat;
  }
  if (models.includes(requested)) return requested;
  throw new EngineError(
    'not-configured',
    `The server at ${serverHost(address)} has no model called "${requested}".`,
    `Pick one of its models in the options: ${modelList(models)}.`,
    `Pick one of its models above: ${modelList(models)}.`,
  );
}

function noChatModel(address: string): EngineError {
  return new EngineError(
    'not-configured',
    `The server at ${serverHost(address)} has only embedding models, which cannot chat.`,
    'Download a chat model first (for Ollama, run ollama pull qwen3:1.7b), then send your request again.',
    'Download a chat model first (for Ollama, run ollama pull qwen3:1.7b), then press Connect again.',
  );
}

function modelList(models: readonly string[]): string {
  return `${models.slice(0, 5).join(', ')}${models.length > 5 ? ', …' : ''}`;
}
