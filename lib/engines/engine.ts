import { replyRoom, type LanguageModel, type PromptFormat } from '@webmcp-agents/local-agent';
import type { ReplyTurns } from './reply-turns';

/** Every engine the settings may name: the settings schema, the factories and the options read this. */
export const engineIds = ['webllm', 'prompt-api', 'openai', 'replay'] as const;

export type EngineId = (typeof engineIds)[number];

/** How far a model load has come, for the progress bar. */
export interface EngineLoadProgress {
  /** 0..1; absent where the load cannot tell how far it is (a connection to a server). */
  fraction?: number;
  /** What is happening, in words ("Downloading 412 of 1,100 MB"). */
  text: string;
  loadedBytes?: number;
  totalBytes?: number;
  etaSeconds?: number;
  /** The model was already on this machine: nothing to download. */
  fromCache?: boolean;
}

/** What went wrong with an engine, and what the person can do about it. */
export type EngineErrorCode =
  | 'no-webgpu'
  | 'device-lost'
  | 'out-of-memory'
  | 'download-failed'
  | 'server-down'
  /** A server that took the connection and then said nothing in time: running, but busy or loading a model. */
  | 'server-silent'
  | 'forbidden'
  | 'unavailable'
  | 'reply-cut-off'
  | 'thinking-cut-off'
  | 'context-full'
  | 'not-configured';

export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** The next step for the person, in a sentence. */
    readonly hint: string,
    /**
     * The same step as the options page words it, where `hint` sends the person to the options:
     * a page should not send you to itself. Read only there, so it need not cross contexts.
     */
    readonly optionsHint?: string,
  ) {
    super(message);
  }

  /** How many tokens the model reads at once, where a `context-full` error knows it. */
  contextTokens?: number;
  /** A server's own limit on the prompt alone, where a `context-full` error comes of it (see contextFull). */
  promptLimit?: number;
}

/** The range of "Longest reply, in tokens": the settings hold it, the options offer it. */
export const replyTokensRange = { min: 256, max: 16_384 } as const;

/**
 * What would let a reply that reached its length limit run longer, for the hint that says so: a
 * higher "Longest reply" (`raise`); nothing there where it is at its highest (`highest`); a larger
 * context where the model's context, not the setting, set the limit (`context`: the agent core
 * keeps a reply within half the context, or the default where that is more, see replyRoom).
 * `replyTokens` is the person's setting; an engine made without it offers to raise it.
 */
export type LongerReply = 'raise' | 'highest' | { context: number };

export function longerReply(replyTokens: number | undefined, contextTokens: number | undefined): LongerReply {
  if (replyTokens === undefined) return 'raise';
  if (contextTokens !== undefined && replyRoom(contextTokens, replyTokens) < replyTokens) return { context: contextTokens };
  return replyTokens >= replyTokensRange.max ? 'highest' : 'raise';
}

/** How the cut-off's hint ends: the way to a longer reply, where there is one in the options. */
function longerReplyWords(longer: LongerReply): string {
  if (longer === 'raise') return '; or raise "Longest reply" in the options.';
  if (longer === 'highest') return '.';
  return `: ${contextRoom(longer.context)}.`;
}

/** Why a longer "Longest reply" would not help where the model's context set the limit. */
function contextRoom(contextTokens: number): string {
  return `the model's ${contextTokens.toLocaleString('en-US')}-token context leaves a reply no more room`;
}

/**
 * A reply that stopped at the length limit (or, where the engine cannot tell, maybe where the
 * context filled up): its end is missing. Only in that second case can a new chat help: the reply
 * cap is the same in every chat. The options page's trial asks for one short sentence: a model
 * that runs on past it may do so again. The cap is the person's ("Longest reply"), within the
 * model's context (`longer`).
 */
export function replyCutOff(limit: string, contextMayBeFull = false, longer: LongerReply = 'raise'): EngineError {
  return new EngineError(
    'reply-cut-off',
    `The model's reply reached ${limit} and was cut off.`,
    contextMayBeFull ? 'Ask for something shorter, or start a new chat if this one is long.' : `Ask for something shorter, or for a long answer a part at a time${longerReplyWords(longer)}`,
    'Press Try it again; if it keeps happening, pick another model.',
  );
}

/**
 * A reply that reached the length limit while the model was still thinking, its thoughts sent
 * apart from the reply (as servers send a thinking model's): no answer came, and asking for
 * something shorter would not help. The panel says the same of a `<think>` never closed. A higher
 * "Longest reply" is offered only where it would give the model more room (`longer`).
 */
export function thinkingCutOff(longer: LongerReply = 'raise'): EngineError {
  const ways = longer === 'raise' ? ', raise "Longest reply" in the options, or pick a model there' : ', or pick a model in the options';
  const why = typeof longer === 'object' ? `: ${contextRoom(longer.context)}` : '';
  return new EngineError(
    'thinking-cut-off',
    'The model used up its reply length while it was still thinking, so it gave no answer.',
    `Ask for something simpler${ways} that does not think first (or turn thinking off on the server that runs it)${why}.`,
    'Pick a model that does not think first, or turn thinking off on the server that runs it, then press Try it again.',
  );
}

/**
 * The conversation (system prompt, tools, history, tool output) no longer fits in what the model
 * can read at once. The agent fits the prompt again to less (see runLocalAgent); where that does
 * not help, sending it again fails the same way, so the hint says what makes it shorter. The
 * options page has no chat: there even its short trial did not fit.
 */
export function contextFull(model: string, contextTokens?: number, promptLimit?: number): EngineError {
  const context = contextTokens ? `the ${contextTokens.toLocaleString('en-US')}-token context` : 'the context';
  // A server's limit on the prompt alone (Text Generation Inference's --max-input-tokens) is its own setting.
  const error = promptLimit
    ? new EngineError(
        'context-full',
        `This conversation no longer fits in the ${promptLimit.toLocaleString('en-US')} prompt tokens the server allows ${model}.`,
        'Start a new chat, lower "Characters of a tool\'s output the model reads" in the options, or start the server with a higher limit on the prompt (Text Generation Inference: --max-input-tokens).',
        'Even this short trial does not fit: start the server with a higher limit on the prompt, or pick another engine.',
      )
    : new EngineError(
        'context-full',
        `This conversation no longer fits in ${context} of ${model}.`,
        'Start a new chat, lower "Characters of a tool\'s output the model reads" in the options, or pick a model with more context.',
        'Even this short trial does not fit: pick a model with more context, or another engine.',
      );
  if (contextTokens) error.contextTokens = contextTokens;
  if (promptLimit) error.promptLimit = promptLimit;
  return error;
}

/**
 * One way to run a model, behind the one interface the loop uses. `load` is idempotent and
 * resolves once the model can generate; `model.stream` may only be used after it.
 */
export interface Engine {
  readonly id: EngineId;
  readonly modelId: string;
  readonly format: PromptFormat;
  readonly model: LanguageModel;
  /** How many tokens the loaded model reads at once (prompt and reply), where the engine knows. */
  readonly contextTokens?: number;
  /**
   * Its model sits in GPU memory, which has room for one: the engine host unloads a replaced
   * engine with this flag only once the runs using it have ended, before the next one loads, and
   * the options page does not try it beside the service worker's copy. Such an engine keeps the
   * model where every engine of its id finds it (as WebLLM's runtime does), so one made for the
   * same model under new settings takes it over without a reload. Say the same in `engineHoldsGpu`.
   */
  readonly holdsGpu?: true;
  /**
   * Its replies take turns (one model, one reply at a time), which its `model.stream` takes: the
   * engine host takes a reply's turn first, so a tab whose reply waits for another tab's says so
   * instead of saying the model writes for it.
   */
  readonly replyTurns?: ReplyTurns;
  load(onProgress: (progress: EngineLoadProgress) => void, signal?: AbortSignal): Promise<void>;
  /** Frees the GPU or the session; the next `load` starts again. */
  unload?(): Promise<void>;
  /**
   * How long a model kept loaded after its last use stays (the settings changed it): counted from
   * that use. An engine whose model would otherwise go with the idle worker (WebLLM's) keeps the
   * worker awake meanwhile.
   */
  keepLoadedFor?(ms: number): void;
}
