import {
  prebuiltAppConfig,
  type AppConfig,
  type ChatCompletionChunk,
  type ChatCompletionRequestStreaming,
  type InitProgressCallback,
  type MLCEngineConfig,
} from '@mlc-ai/web-llm';
import type { WebLlmEngineLike, WebLlmModule } from '../../../lib/engines/webllm/webllm-module';
import { checkGrammar, checkMessages, checkResponseFormat, chunk, named, usageChunk } from './fake-webllm-protocol';

/**
 * A stand-in for `@mlc-ai/web-llm` with the surface the extension uses and WebLLM 0.2.86's
 * behaviour on it: the same progress texts, a per-shard weight cache that a retried download
 * resumes, `DeviceLostError` after a load that ran out of memory, a reload that starts with an
 * `unload()`, whose weights download an `unload()` stops only once it has begun (the tokenizer
 * before it has no abort signal), that fails with the string unload() aborts with, and that ends
 * quietly on an `AbortError`, streamed chunks then a final chunk then a usage chunk (`choices: []`),
 * `interruptGenerate()` ending a reply with `finish_reason: "abort"`, and the KV-cache reuse that
 * counts only the new messages as prompt tokens when the conversation continues. Like WebLLM,
 * replies take turns on one lock per engine and clear the one interrupt flag when their turn
 * comes; a grammar it cannot compile fails on the first read of the stream, not in `create()`;
 * a reply that reaches `max_tokens` ends with `finish_reason: "length"`; with a context window,
 * a prompt longer than it fails on the first read with `ContextWindowSizeExceededError`, and a
 * reply that fills it ends with `finish_reason: "length"` too. With `enable_thinking: false` the
 * reply starts with WebLLM's empty reasoning block, streamed with the first words and kept in the
 * conversation, which counts toward `max_tokens` (its 4 Qwen3 tokens) but not in `completion_tokens`.
 */
export interface FakeWebLlmOptions {
  /** The replies, in order; a function sees each request. */
  replies: readonly string[] | ((request: ChatCompletionRequestStreaming, index: number) => string);
  /** Models whose weights are already cached. */
  cached?: readonly string[];
  gpuFeatures?: readonly string[];
  shardsPerModel?: number;
  megabytesPerShard?: number;
  /** How long one shard takes to download, in WebLLM's whole seconds. */
  secondsPerShard?: number;
  /** Characters per streamed chunk. */
  chunkSize?: number;
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
  /** WebLLM's `context_window_size` in the fake's tokens; absent: no limit. */
  contextWindowSize?: number;
  /** The fake's tokenizer: how many tokens a text costs. Absent: a token per four characters. */
  tokenCount?: (text: string) => number;
}

export interface FakeWebLlmState {
  cachedShards: Map<string, Set<number>>;
  requests: ChatCompletionRequestStreaming[];
  reloads: string[];
  engines: FakeEngine[];
  interrupts: number;
  /** The next reload fails after this many shards were downloaded. */
  failDownloadAfterShards?: number;
  /** The next reload runs out of GPU memory. */
  loseDeviceOnReload?: boolean;
  /** The stored files of the next model loaded from the cache cannot be read. */
  corruptCache?: boolean;
  /** The stored file list cannot be parsed, so deleting the model's files fails. */
  unreadableFileList?: boolean;
  /** The next reply fails with a lost device after this many chunks (the chunk after an interrupt too). */
  loseDeviceAfterChunks?: number;
  /** Resolves when a reload reaches a shard, so a test can act mid-download. */
  onShard?: (shard: number) => void | Promise<void>;
  /** Resolves when a reload downloads the tokenizer, which WebLLM fetches with no abort signal. */
  onTokenizer?: () => void | Promise<void>;
}

export interface FakeWebLlm {
  module: WebLlmModule;
  state: FakeWebLlmState;
}

type FakeEngine = WebLlmEngineLike & { loadedModelId: string | undefined };

export function createFakeWebLlm(options: FakeWebLlmOptions): FakeWebLlm {
  const tokenCount = options.tokenCount ?? fourCharactersAToken;
  const shardCount = options.shardsPerModel ?? 4;
  const shardMegabytes = options.megabytesPerShard ?? 100;
  const state: FakeWebLlmState = { cachedShards: new Map(), requests: [], reloads: [], engines: [], interrupts: 0 };
  for (const modelId of options.cached ?? []) state.cachedShards.set(modelId, new Set(range(shardCount)));
  const isCached = (modelId: string) => (state.cachedShards.get(modelId)?.size ?? 0) === shardCount;

  class FakeMLCEngine implements FakeEngine {
    loadedModelId: string | undefined;
    private appConfig: AppConfig;
    private progress: InitProgressCallback | undefined;
    private interruptSignal = false;
    /** WebLLM's `reloadController`: made by reload(), aborted and forgotten by unload(). */
    private reloadController: AbortController | undefined;
    private conversation: { role: string; content: string }[] = [];
    private lastFinishReason: string | undefined;
    /** One reply at a time, as WebLLM's per-model lock does. */
    private turn: Promise<void> = Promise.resolve();
    chat = { completions: { create: (request: ChatCompletionRequestStreaming) => this.create(request) } };

    constructor(config: MLCEngineConfig = {}) {
      this.appConfig = config.appConfig ?? prebuiltAppConfig;
      this.progress = config.initProgressCallback;
      state.engines.push(this);
    }

    setInitProgressCallback(callback: InitProgressCallback) {
      this.progress = callback;
    }

    async reload(modelId: string): Promise<void> {
      await this.unload();
      state.reloads.push(modelId);
      this.reloadController = new AbortController();
      try {
        await this.reloadInternal(modelId);
      } catch (error) {
        // WebLLM ends quietly on an AbortError (one thrown by the progress callback too).
        if (error instanceof DOMException && error.name === 'AbortError') return;
        throw error;
      } finally {
        this.reloadController = undefined;
      }
    }

    private async reloadInternal(modelId: string): Promise<void> {
      const record = this.appConfig.model_list.find((candidate) => candidate.model_id === modelId);
      if (!record) throw named('ModelNotFoundError', `Cannot find model record in appConfig for ${modelId}.`);
      for (const feature of record.required_features ?? []) {
        if (!(options.gpuFeatures ?? ['shader-f16']).includes(feature)) {
          throw named('ShaderF16SupportError', 'This model requires WebGPU extension shader-f16, which is not enabled in this browser.');
        }
      }
      // The tokenizer: fetched with no signal, before the weights fetch reads the controller's.
      await state.onTokenizer?.();
      await this.fetchShards(modelId, this.reloadController?.signal);
      await this.loadShards();
      this.report(1, 3, 'Finish loading on WebGPU - fake adapter');
      if (state.loseDeviceOnReload) {
        state.loseDeviceOnReload = false;
        throw named('DeviceLostError', 'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).');
      }
      this.loadedModelId = modelId;
      this.conversation = [];
    }

    /**
     * Downloads the shards not yet cached, as WebLLM does: an abort of the signal it started with
     * rejects the fetch with the reason unload() gave, a string.
     */
    private async fetchShards(modelId: string, signal: AbortSignal | undefined): Promise<void> {
      const cached = state.cachedShards.get(modelId) ?? new Set<number>();
      state.cachedShards.set(modelId, cached);
      this.report(0, 0, 'Start to fetch params');
      if (cached.size === shardCount) return;
      let downloaded = 0;
      for (const shard of range(shardCount)) {
        await state.onShard?.(shard);
        if (signal?.aborted) throw signal.reason;
        if (!cached.has(shard)) {
          if (state.failDownloadAfterShards !== undefined && downloaded >= state.failDownloadAfterShards) {
            state.failDownloadAfterShards = undefined;
            throw new TypeError('Failed to fetch');
          }
          cached.add(shard);
          downloaded += 1;
        }
        const fetched = (shard + 1) * shardMegabytes;
        const percent = Math.floor(((shard + 1) * 100) / shardCount);
        // WebLLM rounds up: a stored shard counts as fetched in the first second.
        const seconds = Math.max(1, downloaded * (options.secondsPerShard ?? 1));
        this.report((shard + 1) / shardCount, seconds, `Fetching param cache[${shard + 1}/${shardCount}]: ${fetched}MB fetched. ${percent}% completed, ${seconds} secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.`);
      }
    }

    private async loadShards(): Promise<void> {
      if (state.corruptCache) {
        state.corruptCache = false;
        throw new SyntaxError('Unexpected end of JSON input');
      }
      for (const shard of range(shardCount)) {
        const percent = Math.floor(((shard + 1) * 100) / shardCount);
        this.report((shard + 1) / shardCount, 1, `Loading model from cache[${shard + 1}/${shardCount}]: ${(shard + 1) * shardMegabytes}MB loaded. ${percent}% completed, 1 secs elapsed.`);
      }
      this.report(0.5, 2, 'Loading GPU shader modules[20/40]: 50% completed, 2 secs elapsed.');
      this.report(1, 2, 'Loading GPU shader modules[40/40]: 100% completed, 2 secs elapsed.');
    }

    private report(progress: number, timeElapsed: number, text: string) {
      this.progress?.({ progress, timeElapsed, text });
    }

    async unload(): Promise<void> {
      this.loadedModelId = undefined;
      this.reloadController?.abort('Engine.unload() is called.');
      this.reloadController = undefined;
    }

    async getMessage(modelId?: string): Promise<string> {
      if (!this.loadedModelId) throw named('ModelNotLoadedError', 'Model not loaded before trying to complete ChatCompletionRequest.');
      if (modelId !== undefined && modelId !== this.loadedModelId) {
        throw named('SpecifiedModelNotFoundError', `Specified model ${modelId} for getMessage is not found in loaded models. Please check if the correct model is loaded/specified. Currently loaded models are:\n${this.loadedModelId}`);
      }
      return '';
    }

    async interruptGenerate(): Promise<void> {
      state.interrupts += 1;
      this.interruptSignal = true;
    }

    private async create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> {
      if (!this.loadedModelId) throw named('ModelNotLoadedError', 'Model not loaded before trying to complete ChatCompletionRequest.');
      checkMessages(request);
      checkResponseFormat(request);
      const index = state.requests.length;
      state.requests.push(structuredClone(request));
      const reply = typeof options.replies === 'function' ? options.replies(request, index) : options.replies[index] ?? '(no more replies)';
      return this.generateInTurn(request, reply);
    }

    private async *generateInTurn(request: ChatCompletionRequestStreaming, reply: string): AsyncGenerator<ChatCompletionChunk> {
      const before = this.turn;
      let release!: () => void;
      this.turn = new Promise((resolve) => (release = resolve));
      await before;
      try {
        this.interruptSignal = false;
        // Prefill compiles the grammar.
        checkGrammar(request);
        yield* this.generate(request, reply);
      } finally {
        release();
      }
    }

    private async *generate(request: ChatCompletionRequestStreaming, reply: string): AsyncGenerator<ChatCompletionChunk> {
      const messages = request.messages.map((message) => ({ role: message.role, content: String(message.content) }));
      const history = messages.slice(0, -1);
      const reuse = this.lastFinishReason === 'stop' && sameMessages(history, this.conversation);
      const newMessages = reuse ? messages.slice(-1) : messages;
      const promptTokens = newMessages.reduce((sum, message) => sum + tokenCount(message.content) + 4, 0);
      // The KV cache holds the whole conversation, reused or not.
      const conversationTokens = messages.reduce((sum, message) => sum + tokenCount(message.content) + 4, 0);
      const window = options.contextWindowSize ?? Number.POSITIVE_INFINITY;
      if (conversationTokens > window) throw contextWindowExceeded(conversationTokens, window);
      const chunkSize = options.chunkSize ?? 5;
      const thinkingOff = (request as { extra_body?: { enable_thinking?: boolean } }).extra_body?.enable_thinking === false;
      const [opening, openingTokens] = thinkingOff ? [emptyThinkingBlock, emptyThinkingBlockTokens] : ['', 0];
      let produced = '';
      let finishReason: 'stop' | 'abort' | 'length' = 'stop';
      for (let start = 0; start < reply.length; start += chunkSize) {
        await Promise.resolve();
        // The GPU work under way fails with the device, whether or not an interrupt came meanwhile.
        if (state.loseDeviceAfterChunks !== undefined && start / chunkSize >= state.loseDeviceAfterChunks) {
          state.loseDeviceAfterChunks = undefined;
          this.loadedModelId = undefined;
          throw new Error('Device was lost. This can happen due to insufficient memory or other GPU constraints.');
        }
        if (this.interruptSignal) {
          finishReason = 'abort';
          break;
        }
        if (request.max_tokens != null && openingTokens + tokenCount(produced) >= request.max_tokens) {
          finishReason = 'length';
          break;
        }
        if (conversationTokens + openingTokens + tokenCount(produced) >= window) {
          finishReason = 'length';
          break;
        }
        const text = reply.slice(start, start + chunkSize);
        produced += text;
        yield chunk(request, start === 0 ? { role: 'assistant' as const, content: opening + text } : { content: text }, null);
      }
      this.conversation = [...messages, { role: 'assistant', content: opening + produced }];
      this.lastFinishReason = finishReason;
      yield chunk(request, {}, finishReason);
      if (request.stream_options?.include_usage) yield usageChunk(request, promptTokens, tokenCount(produced), options);
    }
  }

  const module: WebLlmModule = {
    MLCEngine: FakeMLCEngine,
    prebuiltAppConfig,
    async hasModelInCache(modelId) {
      return isCached(modelId);
    },
    async deleteModelAllInfoInCache(modelId) {
      // WebLLM parses the stored file list before it deletes anything.
      if (state.unreadableFileList) throw new SyntaxError('Unexpected token < in JSON at position 0');
      state.cachedShards.delete(modelId);
    },
  };
  return { module, state };
}

/** WebLLM 0.2.86's error, word for word, from prefill. */
function contextWindowExceeded(promptTokens: number, contextWindowSize: number): Error {
  return named(
    'ContextWindowSizeExceededError',
    `Prompt tokens exceed context window size: number of prompt tokens: ${promptTokens}; context window size: ${contextWindowSize}` +
      '\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.',
  );
}

/** What WebLLM 0.2.86 starts a reply with where thinking is off (Qwen3's), and what it costs in Qwen3's tokens. */
export const emptyThinkingBlock = '<think>\n\n</think>\n\n';
const emptyThinkingBlockTokens = 4;

function sameMessages(a: readonly { role: string; content: string }[], b: readonly { role: string; content: string }[]) {
  return a.length === b.length && a.every((message, index) => message.role === b[index]!.role && message.content === b[index]!.content);
}

function fourCharactersAToken(text: string): number {
  return Math.ceil(text.length / 4);
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}
