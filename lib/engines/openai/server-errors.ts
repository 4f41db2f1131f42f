import { EngineError } from '../engine';
import { secondsText } from '../../text/seconds-text';
import type { IdlePhase } from './reply-timeouts';
import { isOnThisMachine } from '../../text/on-this-machine';
import { contextRefusal } from './context-refusal';
import { responseDetail } from './response-detail';
import { serverHost } from './server-address';

// Commands are written out as plain words: the panel and the options page show hints as text.
const serverCommands = 'for Ollama, run ollama serve; in LM Studio, start the server in its Developer tab; for llama.cpp, run llama-server';

/** Nothing answered at the address: the server is not running, or the address is wrong. */
export function serverDown(address: string): EngineError {
  const url = new URL(address);
  const local = isOnThisMachine(url.hostname);
  const start = local ? `start your local server (${serverCommands})` : `start the server on ${url.hostname} (${serverCommands})`;
  // None of those servers speaks https on this computer: a running one refuses the handshake.
  const startServer =
    local && url.protocol === 'https:'
      ? `Local servers speak plain http: try http://${address.slice('https://'.length)}. Else ${start}`
      : slipForLocalhost(url.hostname)
        ? `Did you mean localhost? "${url.hostname}" names another computer. Else ${start}`
        : start.charAt(0).toUpperCase() + start.slice(1);
  return new EngineError(
    'server-down',
    `No server answers at ${address}.`,
    `${startServer}, or correct its address in the options.`,
    // On the options page the address and Connect are right there.
    `${startServer}, or correct the address, then press Connect again.`,
  );
}

/**
 * Whether a host's name reads as "localhost" mistyped ("localhots", "locahost"): a letter left out,
 * added, changed or two swapped. The browser's fetch tells no unknown name from a server that is
 * down, so the slip is named before the server is blamed.
 */
function slipForLocalhost(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name !== 'localhost' && !name.includes('.') && Math.abs(name.length - 'localhost'.length) <= 1 && editsApart(name, 'localhost') <= 2;
}

/** How many letters left out, added, changed or swapped with the next make one word the other. */
function editsApart(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i]![j] = Math.min(rows[i]![j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

const downloadModel = 'download it first (for Ollama, run ollama pull with the model\'s name)';

const logHint = 'Check the server\'s own log, then send your request again.';

/**
 * The options page has no request to send again: what it sent came from a button, Connect (the
 * model list) or Try it (a reply), and the person presses that one again.
 */
export function logHintOnOptions(button: 'Connect' | 'Try it'): string {
  return `Check the server's own log, then press ${button} again.`;
}

/** A reply asked for before the engine's load listed the server's models. */
export function notConnected(): EngineError {
  return new EngineError('unavailable', 'The local server is not connected yet.', 'Send your request again to connect.', 'Press Try it again to connect.');
}

/** The server went quiet: it never started the reply, or stopped in the middle of it. */
export function serverStalled(address: string, phase: IdlePhase, waitedMs: number): EngineError {
  const host = serverHost(address);
  const waited = secondsText(waitedMs);
  if (phase === 'first-byte') {
    return new EngineError(
      'server-silent',
      `The server at ${host} did not start answering within ${waited}.`,
      `It may still be loading the model, or be busy with another request. ${logHint}`,
      `It may still be loading the model, or be busy with another request. ${logHintOnOptions('Try it')}`,
    );
  }
  return new EngineError(
    'server-silent',
    `The server at ${host} stopped answering in the middle of a reply (nothing for ${waited}).`,
    logHint,
    logHintOnOptions('Try it'),
  );
}

/**
 * The server took the connection but sent no model list in time: it is running, only busy (or
 * loading a model), so starting it is not the advice.
 */
export function serverSilent(address: string, waitedMs: number): EngineError {
  const advice = 'It may be busy with another request, or still loading a model.';
  return new EngineError(
    'server-silent',
    `The server at ${serverHost(address)} took the connection but did not answer within ${secondsText(waitedMs)}.`,
    `${advice} ${logHint}`,
    `${advice} ${logHintOnOptions('Connect')}`,
  );
}

/** The connection failed while the reply streamed in: the server stopped, or ran out of memory. */
export function connectionBroken(address: string): EngineError {
  return new EngineError(
    'server-down',
    `The connection to the server at ${serverHost(address)} broke in the middle of a reply.`,
    `The server may have stopped or run out of memory. ${logHint}`,
    `The server may have stopped or run out of memory. ${logHintOnOptions('Try it')}`,
  );
}

/** The body ended without `[DONE]` or a finish reason: what came is only the start of a reply. */
export function replyUnfinished(address: string): EngineError {
  return new EngineError(
    'unavailable',
    `The server at ${serverHost(address)} closed the connection in the middle of a reply.`,
    `Send your request again. If it keeps happening, check the server's own log, or a proxy between this browser and the server.`,
    `Press Try it again. If it keeps happening, check the server's own log, or a proxy between this browser and the server.`,
  );
}

/**
 * What came back is not something this extension can read: not the API's JSON, or not at all.
 * `button` is the options page's that asked for it: Connect for the model list, Try it for a reply.
 */
export function replyUnreadable(address: string, button: 'Connect' | 'Try it' = 'Try it'): EngineError {
  const check = "Check that the address is the server's OpenAI-compatible API (it usually ends in /v1).";
  return new EngineError(
    'unavailable',
    `The server at ${serverHost(address)} sent a reply this extension could not read.`,
    `${check} ${logHint}`,
    `${check} ${logHintOnOptions(button)}`,
  );
}

const checkAddress = "it should be the server's OpenAI-compatible API, which usually ends in /v1.";

/**
 * A web page answered where the API should: the address is a site, a proxy's page or the server's
 * own UI. `expected` is what the API would have sent.
 */
export function notAnApi(address: string, expected = 'a chat reply'): EngineError {
  return new EngineError(
    'not-configured',
    `The server at ${serverHost(address)} answered with a web page, not ${expected}.`,
    `Check the address in the options: ${checkAddress}`,
    `Check the address: ${checkAddress}`,
  );
}

/** How the context-full message names a server's model. */
export function serverModelLabel(address: string, model: string | undefined): string {
  return model ? `"${model}"` : `the model at ${serverHost(address)}`;
}

// Most servers refuse a prompt too long with a 400; Text Generation Inference with a 422, Ollama at
// times with a 500, and a gateway before a server may with a 413. Only at a 400 may the refusal say
// it in words of its own (see contextRefusal).
const contextRefusalStatuses = new Set([400, 413, 422, 500]);

/** How a refusal of the API key ends its message. */
const keyRefused = '(HTTP 401)';

/** Whether the server refused the API key (or asked for one): the key is what to change. */
export function isKeyRefusal(error: unknown): boolean {
  return error instanceof EngineError && error.code === 'forbidden' && error.message.endsWith(`${keyRefused}.`);
}

/**
 * The server answered, but not with what was asked. `replyTokens`: the tokens a chat request asked
 * for the reply, which a refusal of the prompt's length leaves it.
 */
export async function serverRefused(address: string, response: Response, model?: string, replyTokens?: number): Promise<EngineError> {
  const host = serverHost(address);
  // Not followed (see fetchWithKey): the browser hides where to, and nothing was sent on.
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    const elsewhere = `The server at ${host} sent the request on to another address, which the extension does not follow: it sends your requests, and the page's tools, only to the address in the options.`;
    return new EngineError(
      'unavailable',
      elsewhere,
      'Type the address the server sends requests to (its log or its documentation says which) in the options.',
      'Type the address the server sends requests to (its log or its documentation says which), then press Connect.',
    );
  }
  const { detail, error } = await responseDetail(response);
  const reading = { loose: response.status === 400, ...(replyTokens === undefined ? {} : { replyTokens }) };
  const tooLong = contextRefusalStatuses.has(response.status) ? contextRefusal(error, detail, serverModelLabel(address, model), reading) : undefined;
  if (tooLong) return tooLong;
  if (response.status === 403) {
    return new EngineError(
      'forbidden',
      `The server at ${host} refused this extension (HTTP 403).`,
      'It only accepts pages it knows. For Ollama, quit it and start it again with ' +
        'OLLAMA_ORIGINS=chrome-extension://* ollama serve (or set OLLAMA_ORIGINS in its environment).',
    );
  }
  if (response.status === 401) {
    return new EngineError(
      'forbidden',
      `The server at ${host} asks for an API key, or refused the one given ${keyRefused}.`,
      'Enter the key the server was started with under "API key" in the options.',
      'Enter the key the server was started with under "API key", then press Connect.',
    );
  }
  const answered = `The server at ${host} answered HTTP ${response.status}${detail ? `: ${detail.replace(/\.+$/, '')}` : ''}.`;
  if (response.status === 404) {
    if (!model) return noModelList(answered);
    // A server that has the model, not loaded (LM Studio's "No models loaded. Please load a model…"), says so in its own words.
    if (!saysModelMissing(detail, model)) return new EngineError('unavailable', answered, `${serverSays}, then send your request again.`, `${serverSays}, then press Try it again.`);
    return noSuchModel(host, model);
  }
  // Busy, or still loading its model: nothing in its log to act on, only a wait (as long as it
  // says). A 503 that says neither may be a proxy's whose server is down: its log is the place.
  const wait = retryAfter(response.headers.get('retry-after'));
  if (response.status === 429 || (response.status === 503 && (wait !== undefined || /\bload/i.test(detail)))) {
    const why = response.status === 429 ? 'is taking no more requests for now' : 'is busy, or still loading the model';
    const when = wait === undefined ? 'Wait a moment' : wait === 'long' ? 'It asks to wait more than an hour: wait that long' : `Wait ${secondsText(wait)}, as it asks`;
    return new EngineError('unavailable', `${answered} It ${why}.`, `${when}, then send your request again.`, `${when}, then press ${model ? 'Try it' : 'Connect'} again.`);
  }
  return new EngineError(
    'unavailable',
    answered,
    logHint,
    // Without a model it was the model list that was refused: Connect asks for it.
    logHintOnOptions(model ? 'Try it' : 'Connect'),
  );
}

/**
 * How long a server's `Retry-After` asks to wait, in milliseconds: seconds, or a date (HTTP's two
 * forms); `long` past an hour (a quota for the day, say). Undefined where it says nothing readable.
 */
function retryAfter(header: string | null): number | 'long' | undefined {
  const text = header?.trim() ?? '';
  if (text === '') return undefined;
  const milliseconds = /^\d+$/.test(text) ? Number(text) * 1_000 : Date.parse(text) - Date.now();
  if (!Number.isFinite(milliseconds) || milliseconds <= 0) return undefined;
  return milliseconds > 3_600_000 ? 'long' : milliseconds;
}

const serverSays = 'Do what the server says (load the model in it, say)';

/**
 * Whether a 404's words say the model is missing, as Ollama's ("model \"x\" not found") and vLLM's
 * ("The model `x` does not exist.") do, or say nothing: not words of another trouble.
 */
function saysModelMissing(detail: string, model: string): boolean {
  return detail === '' || detail.includes(model) || /\b(?:not found|does not exist|no such model|unknown model)\b/i.test(detail);
}

function noSuchModel(host: string, model: string): EngineError {
  return new EngineError(
    'not-configured',
    `The server at ${host} has no model called "${model}".`,
    `Pick one of its models in the options, or ${downloadModel}.`,
    `Pick one of its models above, or ${downloadModel}.`,
  );
}

/** No model list where the API keeps it: the address's path is not the API's (Ollama's own /api). */
function noModelList(answered: string): EngineError {
  return new EngineError('not-configured', answered, `Check the address in the options: ${checkAddress}`, `Check the address: ${checkAddress}`);
}
