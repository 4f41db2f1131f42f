import { promptApiFormat, type ModelChunk, type ModelRequest } from '@webmcp-agents/local-agent';
import { errorMessage } from '../../messaging/error-message';
import type { Settings } from '../../settings';
import { contextFull, EngineError, type Engine, type EngineLoadProgress } from '../engine';
import type { EnginePreview } from '../engine-preview';
import { engineLabels } from '../engine-labels';
import { createReplyTurns } from '../reply-turns';
import { browserBrand, noBuiltInModelWords, unavailableInBrowserWords } from './browser-brand';
import { browserLanguageModel, englishText, type LanguageModelApi, type LanguageModelCoreOptions } from './prompt-api-types';
import { forget, PromptApiFailure, streamPromptApiReply, type PromptApiConversation, type PromptApiReplyTimeouts } from './stream-prompt-api-reply';

export interface PromptApiEngineDependencies {
  /** Chrome's `LanguageModel`; tests pass a fake. */
  languageModel?: LanguageModelApi;
  /** How long a reply may go without a piece; tests shorten it. */
  replyTimeouts?: PromptApiReplyTimeouts;
}

const promptApiLabel = engineLabels['prompt-api'];
const modelName = 'Gemini Nano (built into Chrome)';
// The options offer only the engines that can run here, each with why another cannot.
const otherEngines = 'pick another engine in the options';
// As the options page says it, where the engines are right there.
const otherEnginesHere = 'pick another engine above';

/**
 * Chrome's built-in model through the Prompt API: offered only where `availability()` allows,
 * downloaded with progress from its monitor, every reply constrained to the JSON envelope.
 */
export function createPromptApiEngine(settings: Settings, dependencies: PromptApiEngineDependencies = {}): Engine {
  const conversation: PromptApiConversation = { seen: [] };
  // Tabs share this engine and its one session: replies take turns, so none reuses or destroys
  // the session while another tab's reply is using it.
  const replyTurns = createReplyTurns();
  let api: LanguageModelApi | undefined;
  let sessionOptions: LanguageModelCoreOptions = englishText;

  return {
    id: 'prompt-api',
    modelId: modelName,
    format: promptApiFormat,
    replyTurns,
    model: {
      async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
        if (!api) throw new EngineError('unavailable', `${promptApiLabel} is not ready.`, 'Send your request again to load it.', 'Press Try it again.');
        const passOn = await replyTurns.take(request.signal);
        if (!passOn) return;
        try {
          yield* streamPromptApiReply(api, conversation, request, sessionOptions, dependencies.replyTimeouts);
        } catch (error) {
          if (request.signal.aborted) throw error;
          throw replyFailure(error);
        } finally {
          passOn();
        }
      },
    },
    async load(onProgress, signal) {
      const languageModel = dependencies.languageModel ?? browserLanguageModel();
      if (!languageModel) throw noBuiltInModel();
      sessionOptions = await sessionOptionsFor(languageModel, settings.temperature);
      await ensureDownloaded(languageModel, sessionOptions, onProgress, signal);
      api = languageModel;
    },
    async unload() {
      forget(conversation);
      api = undefined;
    },
  };
}

/**
 * Whether Chrome's built-in model can run here at all, asked before the first request so the panel
 * says so at once, as the engine's load would. One Chrome needs a go-ahead to download can run once
 * the person gives it in the options: a request cannot, as Chrome starts that download only at a click.
 */
export async function previewPromptApi(languageModel = browserLanguageModel()): Promise<EnginePreview> {
  if (!languageModel) return cannotRun(noBuiltInModel());
  const availability = await languageModel.availability(englishText).catch(() => 'unavailable' as const);
  if (availability === 'unavailable') return cannotRun(unavailableHere());
  return availability === 'downloadable' ? { model: modelName, goAheadFirst: true } : { model: modelName };
}

function cannotRun(error: EngineError): EnginePreview {
  return { error: error.message, hint: error.hint };
}

function noBuiltInModel(brand = browserBrand()): EngineError {
  const { why, todo } = noBuiltInModelWords(brand);
  return new EngineError('unavailable', why, `${todo}, or ${otherEngines}.`, `${todo}, or ${otherEnginesHere}.`);
}

function unavailableHere(brand = browserBrand()): EngineError {
  const inBrowser = unavailableInBrowserWords(brand);
  if (inBrowser) return new EngineError('unavailable', inBrowser.why, `${inBrowser.todo}, or ${otherEngines}.`, `${inBrowser.todo}, or ${otherEnginesHere}.`);
  return new EngineError(
    'unavailable',
    `${promptApiLabel} cannot run on this computer.`,
    `Chrome says it is unavailable here: ${otherEngines}.`,
    `Chrome says it is unavailable here: ${otherEnginesHere}.`,
  );
}

async function ensureDownloaded(
  api: LanguageModelApi,
  options: LanguageModelCoreOptions,
  onProgress: (progress: EngineLoadProgress) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const availability = await api.availability(options).catch(() => 'unavailable' as const);
  if (availability === 'unavailable') throw unavailableHere();
  if (availability === 'available') {
    onProgress({ fraction: 1, text: `${promptApiLabel} is ready.`, fromCache: true });
    return;
  }
  onProgress({ fraction: 0, text: `Chrome is downloading its built-in model…` });
  try {
    const session = await api.create({
      ...options,
      ...(signal ? { signal } : {}),
      monitor(monitor) {
        monitor.addEventListener('downloadprogress', (event) => onProgress(downloadProgress(event.loaded, event.total)));
      },
    });
    session.destroy();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw downloadFailure(error);
  }
  onProgress({ fraction: 1, text: `${promptApiLabel} is ready.` });
}

/** Newer Chrome reports a fraction; the first versions reported bytes with a total. */
function downloadProgress(loaded: number, total: number | undefined): EngineLoadProgress {
  const bytes = total !== undefined && total > 1;
  const fraction = Math.min(1, Math.max(0, bytes ? loaded / total : loaded));
  const amount = bytes ? ` (${Math.round(loaded / 2 ** 20)} of ${Math.round(total / 2 ** 20)} MB)` : '';
  return {
    fraction,
    text: `Chrome is downloading its built-in model: ${Math.floor(fraction * 100)}%${amount}.`,
    ...(bytes ? { loadedBytes: loaded, totalBytes: total } : {}),
  };
}

async function sessionOptionsFor(api: LanguageModelApi, temperature: number): Promise<LanguageModelCoreOptions> {
  const params = await api.params?.().catch(() => null);
  // Chrome takes a temperature only together with a topK.
  if (!params) return englishText;
  return { ...englishText, temperature: Math.min(temperature, params.maxTemperature), topK: params.defaultTopK };
}

function downloadFailure(error: unknown): EngineError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError') {
    return new EngineError(
      'not-configured',
      'Chrome needs your go-ahead before it downloads its built-in model.',
      'Open the extension\'s options, choose Chrome\'s built-in model and press Download.',
      'Press Download again, and allow it if Chrome asks.',
    );
  }
  const message = errorMessage(error);
  return new EngineError(
    'download-failed',
    `Chrome could not download its built-in model: ${message}`,
    `Check your connection and free disk space, then send your request again; or ${otherEngines}.`,
    `Check your connection and free disk space, then press Download again; or ${otherEnginesHere}.`,
  );
}

/**
 * A failed reply in words a person can act on: where it failed (starting the session, or
 * answering), Chrome's own words, and a next step that can help. A model Chrome says cannot run
 * here is not helped by asking again.
 */
function replyFailure(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const failure = error instanceof PromptApiFailure ? error : undefined;
  if (failure?.kind === 'unfinished') {
    return new EngineError(
      'unavailable',
      `${promptApiLabel} stopped in the middle of its reply.`,
      'Send your request again; if it keeps happening, start a new chat.',
      `Press Try it again; if it keeps happening, ${otherEnginesHere}.`,
    );
  }
  if (failure?.kind === 'silent') {
    return new EngineError(
      'unavailable',
      `${promptApiLabel} ${failure.started ? 'stopped answering' : 'did not start answering'}: nothing came for ${Math.round((failure.waitedMs ?? 0) / 1000)} s.`,
      'Send your request again; if it keeps happening, restart Chrome.',
      `Press Try it again; if it keeps happening, restart Chrome or ${otherEnginesHere}.`,
    );
  }
  const cause = failure?.cause ?? error;
  const name = cause instanceof Error ? cause.name : 'Error';
  const message = errorMessage(cause);
  // The prompt is longer than the session's input quota: the agent fits it again to less.
  if (name === 'QuotaExceededError') return contextFull(promptApiLabel);
  if (name === 'NotSupportedError') {
    return new EngineError('unavailable', `Chrome says its built-in model cannot run here now: ${message}`, `To go on, ${otherEngines}.`, `To go on, ${otherEnginesHere}.`);
  }
  // Neutral as to when: the status line tells apart a failure before the first word and one after.
  const stage = failure?.kind === 'session' ? 'could not start' : 'failed to answer';
  return new EngineError(
    'unavailable',
    `${promptApiLabel} ${stage}: ${message}`,
    'Send your request again; if it keeps failing, start a new chat.',
    `Press Try it again; if it keeps failing, ${otherEnginesHere}.`,
  );
}
