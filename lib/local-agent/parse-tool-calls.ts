import { cutText } from './cut-text';
import { readToolCalls } from './parsing/read-tool-calls';
import type { ParseResult } from './types';

/**
 * Only this much of a reply is read, in characters (UTF-16 units, 32 KB of ASCII): a runaway
 * model cannot make parsing slow.
 */
export const MAX_READ = 32 * 1024;

/**
 * Reads tool calls out of a small model's free text: LFM2 tags (pythonic or JSON inside) and
 * `<tool_call>` tags, read together in the order written, else fenced JSON blocks, else the whole
 * reply as JSON. Never throws: what it cannot read stays prose, and calls it got wrong come back as
 * `errors`.
 */
export function parseToolCalls(raw: string, toolNames: ReadonlySet<string>): ParseResult {
  // Never cut inside a character: half an emoji must not reach the prose.
  const text = typeof raw === 'string' ? cutText(raw, MAX_READ) : '';
  const names = typeof toolNames?.has === 'function' ? toolNames : new Set<string>();
  try {
    return readToolCalls(text, names, text.length < raw.length ? `${MAX_READ / 1024} KB` : undefined);
  } catch {
    // The readers are total; this guard only keeps a bug from taking the agent loop down.
    return { text: text.trim(), calls: [], errors: [] };
  }
}
