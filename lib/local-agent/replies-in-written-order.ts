// Qwen's and LFM2's results carry no tool name: the model pairs each with its call by position, so
// a step's replies must come in the order the model wrote its calls.
import type { Run } from './agent-run';
import { parseToolCalls } from './parse-tool-calls';
import type { ReadStep } from './read-reply';
import { unknownToolName } from './unknown-tool-name';
import type { CallReply } from './tool-output-text';

/**
 * A step's replies in the order the model wrote its calls. `unread` answers the parse's errors and
 * `ran` its calls, each in its own order. The reply is read again with the unknown tools' names
 * offered too, which places each "unknown tool" among the calls; a call that could not be read at
 * all has no place to read, and its reply comes after the others (a reply cut off by the token
 * cap ends in one).
 */
export function repliesInWrittenOrder(run: Run, { shownTools, reply, parsed }: ReadStep, unread: readonly CallReply[], ran: readonly CallReply[]): CallReply[] {
  if (unread.length === 0) return [...ran];
  const shownNames = new Set(shownTools.map((tool) => tool.name));
  const unknownNames = parsed.errors.map(unknownToolName);
  const offered = new Set([...shownNames, ...unknownNames.flatMap((name) => (name === undefined ? [] : [name]))]);
  const written = (run.options.format.parseReply ?? parseToolCalls)(reply.text, offered).calls;
  const ordered: CallReply[] = [];
  const placed = new Set<number>();
  let nextRan = 0;
  for (const { name } of written) {
    if (shownNames.has(name)) {
      if (nextRan < ran.length) ordered.push(ran[nextRan++]!);
      continue;
    }
    // One reply stands for every call to the same missing tool (the parse gives its error once).
    const at = unknownNames.indexOf(name);
    if (at === -1 || placed.has(at) || at >= unread.length) continue;
    placed.add(at);
    ordered.push(unread[at]!);
  }
  return [...ordered, ...ran.slice(nextRan), ...unread.filter((_, at) => !placed.has(at))];
}
