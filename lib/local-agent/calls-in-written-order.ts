// Qwen's and LFM2's results carry no tool name: the model pairs each with its call by position, so
// a step's calls are answered in the order the model wrote them, and the person sees their cards
// in that order too.
import type { Run } from './agent-run';
import { parseToolCalls } from './parse-tool-calls';
import type { ReadStep } from './read-reply';
import { unknownToolName } from './unknown-tool-name';

/**
 * A call the model got wrong: `error`, its place among the parse's errors, with the arguments it
 * wrote where they could be read.
 */
export interface UnreadCall {
  error: number;
  arguments?: Record<string, unknown>;
}

/** One call the model wrote: to a shown tool (`call`, its place among the parse's calls), or one it got wrong. */
export type WrittenCall = { call: number } | UnreadCall;

/**
 * A step's calls in the order the model wrote them. The parse gives its calls in order, and its
 * errors apart, one for every call to the same missing tool: the reply is read again with the
 * unknown tools' names offered too, which places each call to one among the calls, every copy
 * with its own arguments. A call that could not be read at all has no place to read, and comes
 * after the others (a reply cut off by the token cap ends in one).
 */
export function callsInWrittenOrder(run: Run, { shownTools, reply, parsed }: ReadStep): WrittenCall[] {
  const calls = parsed.calls.map((_, call) => ({ call }));
  if (parsed.errors.length === 0) return calls;
  const shownNames = new Set(shownTools.map((tool) => tool.name));
  const unknownNames = parsed.errors.map(unknownToolName);
  const offered = new Set([...shownNames, ...unknownNames.flatMap((name) => (name === undefined ? [] : [name]))]);
  const written = (run.options.format.parseReply ?? parseToolCalls)(reply.text, offered).calls;
  const ordered: WrittenCall[] = [];
  const placed = new Set<number>();
  let nextCall = 0;
  for (const { name, arguments: asked } of written) {
    if (shownNames.has(name)) {
      if (nextCall < calls.length) ordered.push(calls[nextCall++]!);
      continue;
    }
    const error = unknownNames.indexOf(name);
    if (error === -1) continue;
    placed.add(error);
    ordered.push({ error, arguments: asked });
  }
  const unplaced = parsed.errors.flatMap((_, error) => (placed.has(error) ? [] : [{ error }]));
  return [...ordered, ...calls.slice(nextCall), ...unplaced];
}
