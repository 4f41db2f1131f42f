import type { AgentEvent } from './agent-events';
import type { StreamedReply } from './stream-reply';
import type { ParseResult } from './types';
import { isEmptyFence } from './parsing/empty-fence';
import { fencedBlocks } from './parsing/fences';
import { MAX_READ, parseToolCalls } from './parse-tool-calls';
import { scanMarkup } from './parsing/scan-markup';
import { callsAnOfferedTool } from './calls-an-offered-tool';

/**
 * Brings what the person was shown of a step's reply (`proseShown`, as it streamed) in line with
 * its parse, which reads the whole reply. Held-back prose is shown as the parse left it, and a
 * fenced block hidden as a call that the parse kept as prose is shown after all. Whatever still
 * differs is replaced by the parse's text: the prose filter hides only the tags it is documented
 * to hide, so call markup it does not know (`<function>…</function>`, a `<tool>` wrapper) streams
 * out, and reasoning streams before a `</think>` that was never opened shows it for what it was.
 * Of a reply with calls, only the prose before its first call is kept (see keptProse).
 */
export function settleProse(
  reply: StreamedReply,
  parsed: ParseResult,
  { step, proseShown, offered }: { step: number; proseShown: string; offered: ReadonlySet<string> },
  emit: (event: AgentEvent) => void,
): void {
  const kept = keptProse(reply, parsed, offered);
  let shown = proseShown;
  const show = (text: string) => {
    shown += text;
    emit({ type: 'prose-delta', step, text });
  };
  // Held-back prose was a call after all (show what is around it) or an answer (show it).
  if (reply.heldProse !== undefined) {
    const heldShown = parsed.calls.length > 0 || parsed.errors.length > 0 ? kept : reply.heldProse;
    if (heldShown) show(heldShown);
  } else {
    // A fenced block kept back as a call that the parse left as prose after all (beside tagged calls):
    // one of the kept prose's blocks, not an emptied fence whose backticks some other block holds.
    const keptBlocks = new Set(fencedBlocks(kept).map(({ open, close }) => kept.slice(open.at, close?.end).trimEnd()));
    const reshown = reply.hiddenBlocks.filter((block) => keptBlocks.has(block.trimEnd()));
    // Added at the end they stand where they were written only where nothing was shown after them;
    // else the prose is replaced at once, not shown with a block out of its place first.
    if (sameProse(shown + reshown.join(''), kept)) for (const block of reshown) show(block);
  }
  // The parse reads only the start of a long reply: its text would cut the answer the person has.
  if (reply.text.length <= MAX_READ && !sameProse(shown, kept)) emit({ type: 'prose-replace', step, text: kept });
}

/**
 * The parse's prose, but of a reply with calls (never the answer) only what came before its first
 * call, tagged, or else fenced to a tool the page offers: after it a small model writes the
 * outcome it expects ("Done! I added two mugs"), which the person must not read as fact before the
 * call ran, nor after it was declined or failed. A tagged call is one whatever tool it names: the
 * run goes on to tell the model the tool is missing, so what it wrote after that call claims an
 * outcome nothing gave ("Your order shipped yesterday"). A fenced block is often an example: one
 * that calls no tool the page offers (see callsAnOfferedTool) runs nothing, and the prose around
 * it is kept.
 * Before a tagged call it is read with the call's opening tag by the generic reader (a format's own
 * may take only a whole reply), so that it is read as in the whole reply: a fence beside it is prose,
 * and one left open before the call is the call's wrapper (see withoutWrapperFence).
 */
function keptProse(reply: StreamedReply, parsed: ParseResult, offered: ReadonlySet<string>): string {
  const tagged = reply.firstCallAt !== undefined && (parsed.calls.length > 0 || parsed.errors.length > 0);
  if (!tagged && !callsAnOfferedTool(parsed, offered)) return parsed.text;
  if (reply.firstCallAt === undefined) return proseBeforeFencedCall(reply, parsed) ?? parsed.text;
  // Both opening tags end at their first `>`.
  const before = parseToolCalls(reply.text.slice(0, reply.text.indexOf('>', reply.firstCallAt) + 1), new Set()).text;
  return withoutWrapperFence(before).trimEnd();
}

/**
 * The prose before a tagged call, less a fence it ends with (and the fence's language), left open
 * around the call. Fences pair as the fence holder pairs them as they stream (see fencedBlocks), so
 * a fence there that closes a block, inline code ("```ls```") among them, stays.
 */
function withoutWrapperFence(before: string): string {
  const last = fencedBlocks(before).pop();
  if (last === undefined || last.close !== undefined) return before;
  return isEmptyFence(before.slice(last.open.at)) ? before.slice(0, last.open.at) : before;
}

/**
 * The prose before the first fenced call to a tool the page offers (the block that ended the prose
 * shown, or the first after it that the parse took out), in a reply without tagged calls, less the
 * blocks before it that the parse took out (each one that only looks like a call, which was never
 * shown). An example the parse kept as prose, or an empty fence, is no call. Blocks are found in the
 * reply's prose, not in its reasoning. Undefined where none ended the prose.
 */
function proseBeforeFencedCall(reply: StreamedReply, parsed: ParseResult): string | undefined {
  const { hiddenBlocks, endingBlock } = reply;
  if (endingBlock === undefined) return undefined;
  const { prose } = scanMarkup(reply.text);
  const takenOut = (block: string) => !isEmptyFence(block) && !parsed.text.includes(block.trim());
  const ending = hiddenBlocks.slice(endingBlock).find((block) => takenOut(block) && prose.includes(block));
  if (ending === undefined) return undefined;
  let before = prose.slice(0, prose.indexOf(ending));
  for (const block of hiddenBlocks.slice(0, endingBlock)) if (takenOut(block)) before = before.replace(block, '');
  return before.trim();
}

/** The same words in the same order: white space the parse trims or joins is no reason to redraw. */
function sameProse(shown: string, parsed: string): boolean {
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();
  return shown === parsed || words(shown) === words(parsed);
}
