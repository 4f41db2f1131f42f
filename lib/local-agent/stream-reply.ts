import type { AgentEvent } from './agent-events';
import { isAbortError, isTurnOver, raceAbort, turnOverReason } from './abortable';
import type { LanguageModel, ModelChunk, ModelRequest, ModelUsage } from './language-model';
import { noFencedCalls, type FenceJudge } from './fenced-call-holder';
import { engineErrorFields } from './engine-error-fields';
import { createReplyPipeline, type ReplyPipeline } from './reply-pipeline';
import { withStreamedTokens } from './streamed-tokens';

export interface StreamedReply {
  /** The reply as the model wrote it, for the trace. */
  raw: string;
  /** The thoughts the engine sent apart from the reply, for the trace; absent where none came. */
  thoughts?: string;
  /**
   * Its own turn (see createOwnTurn): without chat-template tokens, and cut where the model went on
   * to write a turn that is not its own, such as a made-up tool result. What is parsed and kept.
   */
  text: string;
  usage: ModelUsage;
  modelMs: number;
  /**
   * The prose held back because the reply opened like a bare JSON call (`{` or `[`), which the
   * prose filter cannot tell from an answer: the loop shows what is left of it once parsed.
   */
  heldProse?: string;
  /**
   * Where in `text` its first tagged call opened: the prose after it was held from the person, who
   * is shown no outcome before the call ran (see settleProse).
   */
  firstCallAt?: number;
  /**
   * Fenced blocks kept from the person because they read as calls; nothing after the one that
   * ended the prose (see `endingBlock`) was shown. The loop shows any that the reply's parse left
   * as prose after all (a fence beside tagged calls is not read as one), and keeps only the prose
   * before that one otherwise.
   */
  hiddenBlocks: readonly string[];
  /**
   * Which of `hiddenBlocks` ended the prose shown: the first to call a tool the page offers. One
   * before it that only looks like a call (an example, a tool the page does not offer) did not.
   */
  endingBlock?: number;
  /**
   * The engine cut the reply off (its length limit, or the end of the context: see isCutOff) after
   * a call, or a run of calls, written three times in a row, and it was kept to where the loop
   * ends (see CallWatch): it was looping. A replay ends it the same way.
   */
  loopKept?: true;
}

/** A reply the engine ended with an error, not looping: what it wrote and cost until then. */
export interface FailedReply {
  error: unknown;
  raw: string;
  thoughts?: string;
  usage: ModelUsage;
  modelMs: number;
}

/**
 * Streams one reply: every delta goes out raw (for the trace) and, once what is not the model's
 * own turn is taken out (see createOwnTurn), through the prose filter (for the person), up to its
 * first call, tagged or fenced (see createReplyPipeline). Two things the filter cannot judge are held: each
 * ``` fenced block until it closes (dropped if `judge` says it is a call), and a reply that opens
 * like a bare JSON call, for the loop to judge (see `heldProse`). Once the reply has gone past the
 * model's own turn, or closes a fourth copy in a row of one call (a loop that would run to the
 * token cap; it is cut as CallWatch says, as is one the cap or the end of the context cut while
 * it repeated a call or a run of calls), the model is told to stop (its signal aborts) and the
 * reply ends as soon as the engine has stopped. A reply the engine ended with an error comes back
 * as a FailedReply, with the figures it gave before its error, and one stopped by the run's signal
 * ends its step, marked stopped, with what it cost until then; either counts the pieces it
 * streamed as its tokens where the engine gave no count. Rejects with an AbortError as soon as the
 * run's signal aborts.
 */
export async function streamReply(
  model: LanguageModel,
  request: ModelRequest,
  step: number,
  emit: (event: AgentEvent) => void,
  judge: FenceJudge = noFencedCalls,
): Promise<StreamedReply | FailedReply> {
  const started = performance.now();
  const pipeline = createReplyPipeline(step, emit, judge);
  let usage: ModelUsage = {};
  let pieces = 0;
  let thoughts = '';
  const turnOver = new AbortController();
  const iterator = startStream(model, request, turnOver);
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), request.signal);
      if (next.done) break;
      const chunk = next.value;
      if (chunk.type === 'usage') {
        usage = { ...usage, ...chunk.usage };
        continue;
      }
      if (chunk.type === 'thinking') {
        // A thought is the model's writing too, counted where the engine gives no count.
        if (chunk.text) [thoughts, pieces] = [thoughts + chunk.text, pieces + 1];
        continue;
      }
      if (chunk.text === '') continue;
      pieces += 1;
      pipeline.push(chunk.text);
      if (pipeline.over) {
        turnOver.abort(turnOverReason());
        usage = { ...usage, ...(await untilStopped(iterator, request.signal)) };
        break;
      }
    }
  } catch (error) {
    // Tell the engine to stop producing; do not wait for it.
    void iterator.return?.().catch(() => {});
    // A reply cut off at the token cap while it wrote one call, or run of calls, a third time in a
    // row or more was looping: it ends where the loop began repeating. One the engine failed in
    // otherwise (a server lost) may have been a square drawn side by side: its error stands.
    if (!request.signal.aborted && isCutOff(error) && pipeline.endLoop()) return { ...finishedReply(pipeline, usage, started), ...thoughtsOf(thoughts), loopKept: true };
    return endedEarly(error, request.signal, { pipeline, step, emit }, { raw: pipeline.raw(), ...thoughtsOf(thoughts), usage: withStreamedTokens(usage, pieces), modelMs: performance.now() - started });
  }
  return { ...finishedReply(pipeline, usage, started), ...thoughtsOf(thoughts) };
}

/**
 * A reply that failed or was stopped before its end: what was held is shown, and a failed one
 * comes back with what it cost. A stopped one ends its step here, marked stopped, with its cost
 * until then, and the stop's error is thrown on.
 */
function endedEarly(
  error: unknown,
  signal: AbortSignal,
  { pipeline, step, emit }: { pipeline: ReplyPipeline; step: number; emit: (event: AgentEvent) => void },
  ended: Omit<FailedReply, 'error'>,
): FailedReply {
  pipeline.showUnshown();
  if (!signal.aborted) return { error, ...ended };
  emit({ type: 'step-end', step, ...ended, stopped: true });
  throw error;
}

/** The thoughts a reply came with, as its step keeps them: none where they were empty. */
function thoughtsOf(thoughts: string): { thoughts?: string } {
  return thoughts === '' ? {} : { thoughts };
}

/** Whether the engine cut the reply off at its length limit, or at the end of the model's context (see LanguageModel). */
function isCutOff(error: unknown): boolean {
  const { code } = engineErrorFields(error);
  return code === 'reply-cut-off' || code === 'context-full';
}

/**
 * Starts the reply with the model's own signal: the run's, and aborted too by `turnOver` once the
 * reply has gone past its own turn, so that the engine stops writing a tail nobody reads (a
 * made-up tool result, the person's next message).
 */
function startStream(model: LanguageModel, request: ModelRequest, turnOver: AbortController): AsyncIterator<ModelChunk> {
  const signal = AbortSignal.any([request.signal, turnOver.signal]);
  return model.stream({ ...request, signal })[Symbol.asyncIterator]();
}

/** Ends a reply that streamed to its end (or its cut): shows what is left, and gathers it. */
function finishedReply(pipeline: ReplyPipeline, usage: ModelUsage, started: number): StreamedReply {
  pipeline.finish();
  const reply: StreamedReply = { raw: pipeline.raw(), text: pipeline.text(), usage, modelMs: performance.now() - started, hiddenBlocks: pipeline.hiddenBlocks };
  const heldProse = pipeline.heldProse();
  if (heldProse) reply.heldProse = heldProse;
  const firstCallAt = pipeline.firstCallAt();
  if (firstCallAt !== undefined) reply.firstCallAt = firstCallAt;
  if (pipeline.endingBlock !== undefined) reply.endingBlock = pipeline.endingBlock;
  return reply;
}

/**
 * How long an engine told to stop may take to end its stream. WebLLM ends within a token and a
 * server's connection closes at once; an engine that stops writing but never ends its stream must
 * not leave the run "generating" until the person presses Stop.
 */
const stopGraceMs = 2_000;

/**
 * Reads what an engine told to stop still sends until its stream ends, so that the next reply
 * starts only once the engine is free (WebLLM finishes the token it is on, a server's connection
 * closes). The text is dropped, as everything past the cut is; the usage the engine still reports
 * is kept for the trace. An error it ends with is not the reply's, which was whole at the cut (it
 * is logged for a developer), and after `stopGraceMs` the stream is let go. The run's Stop still rejects at once.
 */
async function untilStopped(iterator: AsyncIterator<ModelChunk>, runSignal: AbortSignal): Promise<ModelUsage> {
  let usage: ModelUsage = {};
  const grace = new AbortController();
  const timer = setTimeout(() => grace.abort(), stopGraceMs);
  const stopped = AbortSignal.any([runSignal, grace.signal]);
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), stopped);
      if (next.done) return usage;
      if (next.value.type === 'usage') usage = { ...usage, ...next.value.usage };
    }
  } catch (error) {
    if (runSignal.aborted) throw error;
    if (grace.signal.aborted) void iterator.return?.().catch(() => {});
    // Not the person's to read, but a developer's: an engine that fails as it stops may fail the next reply too.
    else if (!isAbortError(error) && !isTurnOver(error)) console.warn('The engine failed after the reply was cut:', error);
    return usage;
  } finally {
    clearTimeout(timer);
  }
}
