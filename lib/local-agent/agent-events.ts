import type { ChatMessage, ToolOutput } from '@webmcp-agents/chat';
import type { ModelUsage } from './language-model';
import type { CompactTool, ParseResult } from './types';

export type FinishReason = 'answer' | 'max-steps' | 'repeated-call' | 'aborted' | 'error';

/**
 * Why a call did not run, or what the model must fix. `duplicate`: the same call (name and
 * arguments) as one before it in the same reply, which runs once.
 */
export type ToolErrorKind = 'parse' | 'unknown-tool' | 'invalid-arguments' | 'declined' | 'repeated' | 'duplicate';

export interface ShownTool {
  tool: CompactTool;
  score: number;
  /** Shown because the model asked for it at a step that did not show it, or the request names it: fitted first. */
  asked?: true;
}

/** A page's tool the model was not shown at a step, and its score for the request. */
export interface NotShownTool {
  name: string;
  score: number;
}

/** What a run reports as it goes, for a UI to stream and a recorder to keep. */
export type AgentEvent =
  /**
   * `refits`: how many times this step's prompt was fitted again, the model having found it too long.
   * `offeredCount`: the tools the page offered at this step; `notShownCount` of them were not shown,
   * and `notShown` names the best scored of those (see toolsNotShown), so a trace can say why the
   * model did not get a tool.
   */
  | {
      type: 'step-start';
      step: number;
      tools: readonly ShownTool[];
      messages: readonly ChatMessage[];
      refits?: number;
      offeredCount?: number;
      notShownCount?: number;
      notShown?: readonly NotShownTool[];
    }
  | { type: 'text-delta'; step: number; text: string }
  | { type: 'prose-delta'; step: number; text: string }
  /**
   * The step's prose as its parse read it, in place of what streamed: markup or reasoning the prose
   * filter could not hide as it came (a `<function>` call, a `</think>` never opened) is taken back.
   * Of a reply with calls, only the prose before its first call: what follows was never shown.
   * Only where the two differ by more than white space.
   */
  | { type: 'prose-replace'; step: number; text: string }
  | { type: 'tool-call'; step: number; callId: string; name: string; arguments: Record<string, unknown> }
  | { type: 'tool-approval-request'; step: number; callId: string; name: string; reason: string }
  /**
   * `withdrawn`: nobody answered, the question no longer standing (see `Approval`); a `tool-error`
   * says why. `allowedBecause`: nobody answered, and the call runs all the same (see `ToolAllowedMeanwhile`).
   */
  | { type: 'tool-approval-response'; step: number; callId: string; approved: boolean; withdrawn?: true; allowedBecause?: string }
  | { type: 'tool-result'; step: number; callId: string; name: string; output: ToolOutput; durationMs: number }
  /** How much of a step's outputs the model reads, once, where it reads less than all of one: `characters` of `of`. */
  | { type: 'results-read'; step: number; results: readonly { callId: string; characters: number; of: number }[] }
  /**
   * `arguments`: for an unknown tool, what the model wrote for it, where it could be read (for a
   * `repeated` one without `callId`, the same missing tool asked for a third time, that last time).
   * `shownCount`: for an unknown tool the page does offer, how many tools were shown at the step
   * instead; absent where the page has no tool by that name. `withdrawn`: an `unknown-tool` whose
   * call was shown its tool, which the page then changed or removed (see `ToolWithdrawn`).
   */
  | {
      type: 'tool-error';
      step: number;
      callId?: string;
      name?: string;
      kind: ToolErrorKind;
      message: string;
      arguments?: Record<string, unknown>;
      shownCount?: number;
      withdrawn?: true;
    }
  /**
   * A step's reply once it ended, what the engine said it cost, and how long it took. `failed`: the
   * engine ended it with an error (cut off, the server or the GPU lost) and the run ends with that
   * error; nothing of it was parsed, but its figures until then are the step's all the same.
   * `stopped`: the run's signal stopped it while it streamed (the person, or the caller); unparsed
   * too, with its figures until then. Either counts the pieces it streamed as its tokens where the
   * engine gave no count. `thoughts`: what the model thought apart from its reply, where the engine
   * sent any (a server's reasoning), never read back to the model.
   */
  | ({ type: 'step-end'; step: number; raw: string; thoughts?: string; usage: ModelUsage; modelMs: number } & (
      | {
          parsed: ParseResult;
          /** The engine ended the reply with an error while it looped over one call, or a run of calls: kept to the loop's end (see StreamedReply). */
          loopKept?: true;
          failed?: never;
          stopped?: never;
        }
      | { failed: true; stopped?: never }
      | { stopped: true; failed?: never }
    ))
  | { type: 'finish'; reason: FinishReason; text: string; steps: number; error?: { name: string; message: string; hint?: string } };

export type AgentEventType = AgentEvent['type'];
