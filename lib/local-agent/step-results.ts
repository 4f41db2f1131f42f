// What a run's prompts remember of each step's tool results (see RunPrompt), and what the model
// read of them, apart from the fitting itself.
import { toolOutputLength } from '@webmcp-agents/chat';
import type { StepSize } from './fit-tool-replies';
import type { CallReply } from './tool-output-text';

/** One step's tool results, as the prompts have shown them so far. */
export interface StepResults extends StepSize {
  step: number;
  /** Where their message sits in the run's messages. */
  index: number;
  replies: readonly CallReply[];
  /** The share of the room they were last cut to; undefined: left out. */
  share: number | undefined;
  /** Characters of each output the model read in the last prompt that showed them. */
  read: readonly number[];
  /** Whether the person was told how much of them the model read. */
  told: boolean;
}

/** How much of each of a step's outputs with a call id the model read, `characters` of `of`. */
export function outputsRead(results: StepResults): { callId: string; characters: number; of: number }[] {
  const outputs = results.replies.flatMap((reply) => ('output' in reply ? [reply] : []));
  return outputs.flatMap((reply, index) => (reply.callId ? [{ callId: reply.callId, characters: results.read[index]!, of: toolOutputLength(reply.output) }] : []));
}
