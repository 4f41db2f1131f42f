// A step's reply as the loop reads it: its prose settled, its calls parsed, the reply kept for the
// next prompt.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { Run } from './agent-run';
import type { Answer } from './ask-model';
import { settleProse } from './settle-prose';
import type { StreamedReply } from './stream-reply';
import type { CompactTool, ParseResult } from './types';

/** A step's reply as the loop read it, with the page's tools at the step and those the model was shown. */
export interface ReadStep {
  tools: readonly ToolDescriptor[];
  shownTools: readonly CompactTool[];
  reply: StreamedReply;
  parsed: ParseResult;
}

/**
 * The reply's own turn is read and kept: a tool result it made up is not the page's, and the
 * model must not read it as fact next step. The trace keeps the reply as it came.
 */
export function readReply(run: Run, tools: readonly ToolDescriptor[], { reply, shownTools, parse, proseShown }: Answer): ReadStep {
  const { step } = run;
  const parsed = parse(reply.text);
  settleProse(reply, parsed, { step, proseShown, offered: new Set(tools.map((tool) => tool.name)) }, run.emit);
  const { raw, thoughts, usage, modelMs, loopKept } = reply;
  run.emit({ type: 'step-end', step, raw, ...(thoughts ? { thoughts } : {}), parsed, usage, modelMs, ...(loopKept ? { loopKept } : {}) });
  run.prompt.addReply(reply.text);
  run.text = parsed.text;
  return { tools, shownTools, reply, parsed };
}
