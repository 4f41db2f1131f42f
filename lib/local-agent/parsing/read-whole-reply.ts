import type { CallCollector } from './call-collector';
import { readFunctionTags } from './read-function-tags';
import { readJsonReply } from './read-json-reply';
import { readPythonicCalls } from './read-pythonic-calls';
import { skipSpace, trimRange } from './text-range';

export const MISTRAL_OPEN = '[TOOL_CALLS]';
const MISTRAL_CLOSE = '[/TOOL_CALLS]';

/**
 * The last shape: the whole reply as JSON. Returns the prose left (empty for calls, the text of a
 * Prompt API message), or null when the reply is not one. Beyond the documented shapes it also
 * reads a few common near-misses, but only when every call in them names an offered tool.
 */
export function readWholeReply(text: string, collector: CallCollector): string | null {
  const [start, end] = trimRange(text, 0, text.length);
  if (start >= end) return null;
  const code = text.charCodeAt(start);
  if (code === 0x7b || code === 0x5b) {
    const read = readJsonReply(text, start, end, collector);
    if (read.kind === 'calls') return '';
    if (read.kind === 'message') return read.text;
  }
  return readNearMiss(text, start, end, collector, true) ? '' : null;
}

/**
 * Shapes no documentation promises, tried on a copy of the collector and kept only if every call
 * is read and offered: so prose, or a call to a tool not offered, stays prose. A bare pythonic
 * list counts only as a whole reply (`allowPythonic`), never as a code sample in a fence.
 */
export function readNearMiss(
  text: string,
  start: number,
  end: number,
  collector: CallCollector,
  allowPythonic: boolean,
): boolean {
  const trial = collector.fork();
  readNearMissInto(text, start, end, trial, allowPythonic);
  if (trial.calls.length === 0 || trial.errors.length > 0) return false;
  collector.absorb(trial);
  return true;
}

function readNearMissInto(
  text: string,
  start: number,
  end: number,
  trial: CallCollector,
  allowPythonic: boolean,
  unwrapped = false,
): void {
  const code = text.charCodeAt(start);
  if (text.startsWith(MISTRAL_OPEN, start)) {
    const bodyEnd = text.endsWith(MISTRAL_CLOSE, end) ? end - MISTRAL_CLOSE.length : end;
    const [from, to] = trimRange(text, start + MISTRAL_OPEN.length, bodyEnd);
    readJsonReply(text, from, to, trial);
  } else if (text.startsWith('<function=', start) || text.startsWith('<function name=', start)) {
    readFunctionTags(text, start, end, trial);
  } else if (code === 0x3c && !unwrapped) {
    const inner = unwrapTag(text, start, end);
    if (inner !== null && inner[0] < inner[1]) readNearMissInto(text, inner[0], inner[1], trial, false, true);
  } else if (code === 0x7b || (code === 0x5b && text.charCodeAt(skipSpace(text, start + 1, end)) === 0x7b)) {
    readJsonReply(text, start, end, trial);
  } else if (code === 0x5b && allowPythonic) {
    readBracketedPythonic(text, start, end, trial);
  }
}

/** `[name(a=1), …]` filling the whole range, the brackets required. */
function readBracketedPythonic(text: string, start: number, end: number, trial: CallCollector): void {
  if (text.charCodeAt(end - 1) !== 0x5d) return;
  const items = readPythonicCalls(text, start, end) ?? [];
  for (const item of items) {
    if (item.ok) trial.addCall(item.name, item.arguments);
    else trial.addUnreadable(item.reason, '');
  }
}

/** The inside of `<word>…</word>` filling the range (the closing tag may be cut off). */
function unwrapTag(text: string, start: number, end: number): [number, number] | null {
  let nameEnd = start + 1;
  while (nameEnd < end && nameEnd - start < 40 && /[A-Za-z0-9_-]/.test(text[nameEnd] ?? '')) nameEnd += 1;
  if (nameEnd === start + 1 || text[nameEnd] !== '>') return null;
  const closing = `</${text.slice(start + 1, nameEnd)}>`;
  const innerEnd = text.endsWith(closing, end) ? end - closing.length : end;
  return trimRange(text, nameEnd + 1, innerEnd);
}
