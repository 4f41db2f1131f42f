import { errorNameAndMessage } from '../../messaging/error-message';
import { megabyteCount } from '../../text/format-bytes';
import { contextFull, EngineError } from '../engine';

export interface LoadFailureContext {
  label: string;
  /** A model that needs less memory, to offer when this one does not fit. */
  smallerLabel?: string;
  /** How far the download came before it stopped. */
  download?: { loadedBytes: number; totalBytes: number; fraction: number };
  /** The weights were on this computer before the load began. */
  wasCached: boolean;
  /** The stored copy was removed because it could not be read: all of it, or its library alone. */
  clearedBrokenCache?: 'model' | 'library' | false;
}

const recoverHint = 'The extension recovers by itself: there is no need to reload it.';

/** Whether an error from WebLLM means the GPU device is gone (usually out of memory). */
export function isDeviceLost(error: unknown): boolean {
  const { name, message } = errorNameAndMessage(error);
  return name === 'DeviceLostError' || /device (?:is |was )?lost|out of memory|\bOOM\b/i.test(message);
}

/**
 * Whether a load failed while fetching files, so that a retry can resume the download. Chrome's
 * Cache API says "Request failed" where the server answered with an error (404, 429, 503).
 */
export function isNetworkFailure(error: unknown): boolean {
  const { name, message } = errorNameAndMessage(error);
  if (name === 'QuotaExceededError') return false;
  return name === 'NetworkError' || /failed to fetch|network|cannot fetch|unable to fetch|load failed|request failed|ERR_/i.test(message);
}

/**
 * Whether a file WebLLM read was a web page: JSON.parse or WebAssembly met its "<". A network
 * that asks the person to sign in first answers every address with its sign-in page.
 */
function wasWebPage(message: string): boolean {
  return /token '?<|found 3c\b/i.test(message);
}

/** What a failed WebLLM load means for the person, and what to do next. */
export function loadFailure(error: unknown, context: LoadFailureContext): EngineError {
  const { name, message } = errorNameAndMessage(error);
  const { label } = context;
  const smaller = context.smallerLabel ? `a smaller model such as ${context.smallerLabel}` : 'a smaller model';
  if (isDeviceLost(error)) {
    return new EngineError(
      'out-of-memory',
      `The GPU ran out of memory while loading ${label}.`,
      `Pick ${smaller} in the options, close other tabs that use the GPU, and send your request again. ${recoverHint}`,
    );
  }
  if (name === 'QuotaExceededError' || /quota/i.test(message)) {
    return new EngineError(
      'download-failed',
      `There is not enough storage space to keep ${label}.`,
      'Delete models you no longer use in the options (Models on this computer), free some disk space, or pick a smaller model.',
    );
  }
  if (name === 'ShaderF16SupportError' || name === 'FeatureSupportError') {
    return new EngineError(
      'unavailable',
      `This GPU cannot run ${label}: it lacks 16-bit shaders (shader-f16).`,
      'Pick a q4f32 build in the options, or leave the model on the default so the extension picks one that fits.',
    );
  }
  if (name === 'WebGPUNotAvailableError' || name === 'WebGPUNotFoundError' || /compatible GPU/i.test(message)) {
    return new EngineError(
      'no-webgpu',
      'WebGPU found no usable GPU, so WebLLM cannot run here.',
      'Update Chrome and your graphics driver, or pick another engine in the options.',
    );
  }
  if (context.clearedBrokenCache && wasWebPage(message)) {
    return new EngineError(
      'download-failed',
      `The download of ${label} got a web page instead of the model's files: a network that asks you to sign in (in a hotel, on a train) sends one.`,
      'Sign in to the network if it asks, then send your request again: the page has been removed.',
    );
  }
  if (context.clearedBrokenCache === 'library') {
    return new EngineError(
      'download-failed',
      `Part of the stored copy of ${label}, its GPU program, could not be read.`,
      'That part has been removed: send your request again to download it afresh (the model itself stays).',
    );
  }
  if (context.clearedBrokenCache) {
    return new EngineError(
      'download-failed',
      `The stored copy of ${label} could not be read.`,
      'It has been removed: send your request again to download it afresh.',
    );
  }
  if (isNetworkFailure(error) || context.download) {
    // Chrome's words where a server answered, with an error: the connection is not to blame. With
    // nothing of the model stored yet, there is nothing to resume or delete.
    const nothingStored = !context.wasCached && (context.download?.loadedBytes ?? 0) === 0;
    const hint = /request failed/i.test(message) ? serverErrorHint : nothingStored ? connectionHint : resumeHint;
    return new EngineError('download-failed', downloadStoppedMessage(label, context.download), hint);
  }
  return new EngineError(
    'unavailable',
    `WebLLM could not load ${label}: ${message || name}.`,
    context.wasCached
      ? 'Send your request again. If it fails again, delete the model in the options to download it afresh, or pick another model.'
      : 'Send your request again. If it fails again, pick another model in the options.',
  );
}

/** What it means when generation fails part way. */
export function generationFailure(error: unknown, label: string, smallerLabel?: string): EngineError {
  // Already said in the person's terms (a reply cut off at the length limit).
  if (error instanceof EngineError) return error;
  if (isDeviceLost(error) || /not loaded/i.test(errorNameAndMessage(error).message)) {
    return new EngineError(
      'device-lost',
      `The GPU stopped working while ${label} was answering.`,
      `Send your request again to reload the model${smallerLabel ? `; if it keeps happening, pick ${smallerLabel} in the options` : ''}. ${recoverHint}`,
    );
  }
  const { name, message } = errorNameAndMessage(error);
  // WebLLM's own text is advice for developers (`context_window_size`); only its figure is kept.
  if (name === 'ContextWindowSizeExceededError') return contextFull(label, contextWindowIn(message));
  return new EngineError(
    'unavailable',
    `${label} failed to answer: ${message || name}.`,
    'Send your request again; if it keeps failing, start a new chat.',
  );
}

// Chrome says no more than "Request failed": busy (429, 503), gone (404), or a network's sign-in page (511).
const serverErrorHint =
  'A server the model comes from (huggingface.co, or raw.githubusercontent.com for its GPU program) answered with an error. Send your request again in a few minutes: the download picks up where it ' +
  'stopped. On a network that asks you to sign in (in a hotel, on a train), sign in first; if it keeps failing, pick another model.';

// Where the files come from, so that a network that blocks that site alone is not taken for none.
const connectionHint = 'Check your connection and send your request again. The model comes from huggingface.co, its GPU program from raw.githubusercontent.com: a network that blocks either site stops its download.';

const resumeHint =
  'Check your connection and send your request again: the download picks up where it stopped. ' +
  'If it keeps failing, delete the model in the options and download it afresh.';

function downloadStoppedMessage(label: string, download: LoadFailureContext['download']): string {
  if (!download || download.totalBytes === 0) return `The download of ${label} failed.`;
  return (
    `The download of ${label} stopped at ${Math.floor(download.fraction * 100)}% ` +
    `(${megabyteCount(download.loadedBytes)} of ${megabyteCount(download.totalBytes)} MB).`
  );
}

/** "context window size: 4096" in WebLLM's message, when it says so. */
function contextWindowIn(message: string): number | undefined {
  const size = /context window size:\s*(\d+)/i.exec(message)?.[1];
  return size ? Number(size) : undefined;
}

