import { errorMessage } from '../../messaging/error-message';
import { raceAbort } from '../../local-agent/abortable';
import { namedError } from '../../messaging/named-error';

/**
 * One way of reading a page's tools: the browser's `document.modelContext`, a polyfill's, the
 * older testing API, or an older context whose methods are watched. The content script and the
 * bridge script both speak to pages through adapters, and never trust what comes back.
 */
export interface ToolAdapter {
  /** The page's tools as it hands them over: unchecked, possibly hostile. */
  list(): Promise<unknown[]>;
  /** Calls `onChange` whenever the page says its tools changed; returns a function that stops. */
  watch(onChange: () => void): () => void;
  /** Runs a tool: the page's result as a JSON string, or `null` when the document went away mid-call. */
  execute(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<string | null>;
}

/** Reads one property of a page object; a getter that throws reads as undefined. */
export function readProperty(target: unknown, key: string): unknown {
  if ((typeof target !== 'object' && typeof target !== 'function') || target === null) return undefined;
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A tool's name, if it has a text one. */
export function readToolName(tool: unknown): string | undefined {
  const name = readProperty(tool, 'name');
  return typeof name === 'string' ? name : undefined;
}

/**
 * Results as the browser gives them: text stays text, anything else becomes JSON. A value that
 * has no JSON (a BigInt, a cycle) fails the call, as it does in Chrome, instead of reading as a
 * successful "[object Object]"; a function or a symbol, which JSON leaves out, is no result, as
 * in Chrome (never a function's source, which may hold the page's secrets).
 */
function toResultString(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw noJson(errorMessage(error));
  }
  return json ?? noResult;
}

/** A result that has no JSON, and why (`why`): nothing of it can be passed on. */
export function noJson(why: string): Error {
  return new Error(`The tool's result could not be turned into JSON (${why}), so nothing of it can be passed on.`);
}

/**
 * What the browser's `executeTool` (or a polyfill's) handed back. Null is a navigation. A tool that
 * returned nothing comes back as the word "undefined" from Chrome (nothing at all from some
 * polyfills): the model is told the tool finished, as for a tool the extension called itself.
 */
export function browserResultString(value: unknown): string | null {
  if (value === undefined || value === 'undefined') return noResult;
  return toResultString(value);
}

const noResult = 'The tool finished without a result.';

/**
 * What a page's own `execute` returned, as a result. The extension called it itself, so nothing
 * here is a navigation: null is the tool's value, and no value at all says the tool finished.
 */
export function executeResultString(value: unknown): string {
  if (value === undefined) return noResult;
  return toResultString(value) ?? 'null';
}

export function toolNotFound(name: string): Error {
  return namedError('NotFoundError', `The page offers no tool named "${name}".`);
}

/**
 * Runs `operation`, rejecting as soon as `signal` aborts (a hanging tool must not hold the call),
 * with the signal's reason: a timeout says so. The core's race is imported from its own file, not
 * its index, which would add about 15 KB to each page script.
 */
export function abortable<T>(operation: Promise<T>, signal: AbortSignal): Promise<T> {
  return raceAbort(operation, signal, abortReason);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? namedError('AbortError', 'The call was aborted.');
}
