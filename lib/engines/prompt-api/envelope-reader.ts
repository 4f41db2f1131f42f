import { isWholeJson } from '../../text/is-whole-json';

/**
 * Chrome's built-in model answers with one JSON envelope per reply (`promptApiFormat`). The
 * person should see prose, not JSON, as it streams, so this reads the envelope as it arrives: the
 * text of a `message` streams out as it is decoded; a `tool_call` becomes the `<tool_call>` tags
 * that the prose filter hides and `parseToolCalls` reads. Anything else is passed on as it was.
 */
export interface EnvelopeReader {
  /** Takes the next piece of the reply; returns the text to show now. */
  push(delta: string): string;
  /**
   * Once the reply ends: what is left to show, and whether the reply stopped inside its envelope
   * (`cut`): a message never closed, or a call never whole. Half a reply is no answer, and half a
   * call's JSON is no text to show.
   */
  finish(): { text: string; cut: boolean };
}

const messageStart = /^\s*\{\s*"type"\s*:\s*"message"\s*,\s*"text"\s*:\s*"/;
const decidedWithin = 80;

export function createEnvelopeReader(): EnvelopeReader {
  let raw = '';
  let mode: 'undecided' | 'message' | 'done' | 'whole' = 'undecided';
  let cursor = 0;

  const decodeAvailable = (): string => {
    const decoded = decodeJsonStringPart(raw, cursor);
    cursor = decoded.next;
    if (decoded.closed) mode = 'done';
    return decoded.text;
  };

  return {
    push(delta) {
      raw += delta;
      if (mode === 'undecided') {
        const match = messageStart.exec(raw);
        if (match) {
          mode = 'message';
          cursor = match[0].length;
        } else if (raw.length > decidedWithin || raw.includes('"tool_call"')) {
          mode = 'whole';
        }
      }
      return mode === 'message' ? decodeAvailable() : '';
    },
    finish() {
      if (mode === 'message' || mode === 'done') return { text: '', cut: mode === 'message' };
      // Only an envelope begun can be cut: text that is no JSON at all is passed on as it was.
      if (raw.trimStart().startsWith('{') && !isWholeJson(raw)) return { text: '', cut: true };
      return { text: envelopeToText(raw), cut: false };
    },
  };
}

/** A whole reply read at once: a call as `<tool_call>` tags, a message as its text. */
function envelopeToText(raw: string): string {
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return raw;
  }
  const value = envelope as { type?: unknown; name?: unknown; arguments?: unknown; text?: unknown } | null;
  if (value?.type === 'tool_call' && typeof value.name === 'string') {
    return `<tool_call>\n${JSON.stringify({ name: value.name, arguments: value.arguments ?? {} })}\n</tool_call>`;
  }
  if (value?.type === 'message' && typeof value.text === 'string') return value.text;
  return raw;
}

/**
 * The inverse, for a conversation rebuilt in a new session: the model is shown its own earlier
 * replies as the envelopes it wrote.
 */
export function textToEnvelope(text: string): string {
  const call = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(text);
  if (call) {
    try {
      const { name, arguments: args } = JSON.parse(call[1]!) as { name?: unknown; arguments?: unknown };
      if (typeof name === 'string') return JSON.stringify({ type: 'tool_call', name, arguments: args ?? {} });
    } catch {
      // Not a call this reader wrote: keep it as a message.
    }
  }
  return JSON.stringify({ type: 'message', text });
}

const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Decodes a JSON string body from `start` as far as the input allows, stopping before a split escape. */
function decodeJsonStringPart(input: string, start: number): { text: string; next: number; closed: boolean } {
  let text = '';
  let index = start;
  while (index < input.length) {
    const character = input[index]!;
    if (character === '"') return { text, next: index + 1, closed: true };
    if (character !== '\\') {
      text += character;
      index += 1;
      continue;
    }
    const kind = input[index + 1];
    if (kind === undefined) break;
    if (kind === 'u') {
      const hex = input.slice(index + 2, index + 6);
      if (hex.length < 4) break;
      text += String.fromCharCode(Number.parseInt(hex, 16) || 0xfffd);
      index += 6;
      continue;
    }
    text += escapes[kind] ?? kind;
    index += 2;
  }
  return { text, next: index, closed: false };
}
