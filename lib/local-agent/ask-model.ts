// Asking the model at a step: the page's tools ranked for it, the prompt fitted, the reply streamed,
// and the prompt made smaller and sent again where the model finds it too long.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { AgentEvent, ShownTool } from './agent-events';
import type { Run } from './agent-run';
import { callsAnOfferedTool } from './calls-an-offered-tool';
import type { FenceJudge } from './fenced-call-holder';
import { engineErrorFields } from './engine-error-fields';
import { isEmptyFence } from './parsing/empty-fence';
import { mayOpenCodeCall, withCallsWrittenAsCode } from './calls-written-as-code';
import { mayOpenFencedCall } from './parsing/read-fenced-calls';
import { parseToolCalls } from './parse-tool-calls';
import { rankScoredTools, scoreTools } from './rank-tools';
import { messagesTokens } from './messages-tokens';
import type { StepPrompt } from './run-prompt';
import { streamReply, type FailedReply, type StreamedReply } from './stream-reply';
import { toolsNotShown } from './tools-not-shown';
import type { CompactTool, ParseResult } from './types';

/** The most tools shown to the model at a step, unless `maxTools` says otherwise. */
export const defaultMaxTools = 8;

/** The page's tools at a step, their scores for the request, and the best of them to show the model. */
interface OfferedTools {
  tools: readonly ToolDescriptor[];
  scores: readonly number[];
  ranked: readonly ShownTool[];
}

/** The page's tools change as the page does: they are ranked again at every step. */
export function offerTools(run: Run, tools: readonly ToolDescriptor[]): OfferedTools {
  const { request, scorer, maxTools = defaultMaxTools } = run.options;
  const scores = scoreTools(tools, request, { recent: run.recent, scorer });
  const askedFor = new Set([...toolsNamedIn(run.requestWords, tools), ...run.askedFor]);
  return { tools, scores, ranked: withAskedFor(askedFor, tools, scores, rankScoredTools(tools, scores, maxTools)) };
}

/**
 * The tools the request names as they are named (`bulk_399`, `cart.add`): a person who writes a
 * tool's name asks for that tool, though the ranking, which reads words, cannot tell it from its
 * siblings (`bulk_000`…). Only names that cannot be plain words count (with `_`, `-`, `.` or a digit,
 * or a capital after their first letter), each written whole.
 */
function toolsNamedIn(written: ReadonlySet<string>, tools: readonly ToolDescriptor[]): string[] {
  if (written.size === 0) return [];
  return tools.flatMap(({ name }) => (written.has(name) && /[_.\-\d]|.[A-Z]/.test(name) ? [name] : []));
}

/**
 * The ranked tools with each the model asked for (see Run.askedFor) among them, marked to be
 * fitted to the context first (see fitShownTools): one the ranking left out takes the place of
 * the lowest ranked of the others, so as many are shown.
 */
function withAskedFor(askedFor: ReadonlySet<string>, tools: readonly ToolDescriptor[], scores: readonly number[], ranked: readonly ShownTool[]): readonly ShownTool[] {
  const shown: ShownTool[] = ranked.map((entry) => (askedFor.has(entry.tool.name) ? { ...entry, asked: true } : entry));
  for (const name of askedFor) {
    const index = tools.findIndex((tool) => tool.name === name);
    if (index === -1 || shown.some(({ tool }) => tool.name === name)) continue;
    const replaced = shown.findLastIndex(({ tool }) => !askedFor.has(tool.name));
    if (replaced === -1) break;
    shown[replaced] = { ...rankScoredTools([tools[index]!], [scores[index]!], 1)[0]!, asked: true };
  }
  return shown;
}

/** A reply the model streamed to a step's prompt, the tools it was shown, and how to read the reply. */
export interface Answer {
  reply: StreamedReply;
  shownTools: readonly CompactTool[];
  parse: (reply: string) => ParseResult;
  /** The prose the person saw of it as it streamed. */
  proseShown: string;
}

/** A prompt whose reply failed: the error, the prose the person saw before it, and the reply the engine began, if it did. */
interface Failure {
  error: unknown;
  proseShown: string;
  failedReply?: FailedReply;
}

/**
 * Fits the prompt and streams the model's reply to it. A prompt the model finds too long is made
 * smaller (see RunPrompt.shrink) and sent again while the person has seen nothing of the step.
 */
export async function askModel(run: Run, offered: OfferedTools): Promise<Answer> {
  // The last prompt the model refused, by size, and how.
  let refused: { tokens: number; failure: Failure } | undefined;
  for (let refits = 0; ; refits += 1) {
    const stepPrompt = run.prompt.next(offered.ranked);
    const tokens = messagesTokens(stepPrompt.messages);
    // A prompt no smaller than the one refused is not sent again: smaller still, or the end.
    if (refused && tokens >= refused.tokens) {
      if (refits >= maxRefits) throw giveUp(run, refused.failure);
      run.prompt.shrink(undefined);
      continue;
    }
    const sent = await sendPrompt(run, stepPrompt, refits, offered);
    if ('reply' in sent) return sent;
    const tooLong = refits < maxRefits && sent.proseShown === '' && run.prompt.canShrink ? contextFullError(sent.error) : undefined;
    if (!tooLong) throw giveUp(run, sent);
    refused = { tokens, failure: sent };
    run.prompt.shrink(tooLong.contextTokens);
  }
}

/**
 * Starts the step with this prompt and streams the model's reply to it; a failure comes back with
 * the prose the person saw before it, which says whether the prompt may still be sent again. The
 * page's tools and their scores are for the trace: how many the page offered, and which the model
 * was not shown.
 */
async function sendPrompt(
  run: Run,
  { shown, messages }: StepPrompt,
  refits: number,
  { tools, scores }: OfferedTools,
): Promise<Answer | Failure> {
  const { step, signal, emit } = run;
  const shownTools = shown.map(({ tool }) => tool);
  const shownNames = new Set(shownTools.map((tool) => tool.name));
  emit({ type: 'step-start', step, tools: shown, messages, ...(refits > 0 ? { refits } : {}), offeredCount: tools.length, ...toolsNotShown(tools, scores, shownNames) });
  const { format } = run.options;
  const pageNames = new Set(tools.map((tool) => tool.name));
  // Calls written as code are read as calls written wrong here, so that the stream holds such a block back as it does a call.
  const parse = (reply: string) => withCallsWrittenAsCode((format.parseReply ?? parseToolCalls)(reply, shownNames), pageNames, format);
  let proseShown = '';
  const emitStep = (event: AgentEvent) => {
    if (event.type === 'prose-delta') proseShown += event.text;
    emit(event);
  };
  try {
    const reply = await streamReply(run.options.model, { messages, tools: shownTools, signal, maxTokens: run.prompt.replyLimit() }, step, emitStep, judgeFences(parse, pageNames, format.parseReply === undefined));
    if ('error' in reply) return { error: reply.error, proseShown, failedReply: reply };
    // The model read this prompt: the person may learn how much of each result it read.
    run.prompt.promptRead();
    return { reply, shownTools, parse, proseShown };
  } catch (error) {
    return { error, proseShown };
  }
}

/**
 * The step ends with the error its last prompt met, answered for the caller to throw. A reply the
 * engine began keeps its figures (the trace's step, the panel's speed): those of the prompt last
 * sent, whose step-start the trace's step is. A refused prompt sent again smaller was a step-start
 * of its own, replaced by the next, so its figures are never the step's: none is counted twice.
 */
function giveUp(run: Run, { error, failedReply }: Failure): unknown {
  if (failedReply) {
    const { raw, thoughts, usage, modelMs } = failedReply;
    run.emit({ type: 'step-end', step: run.step, raw, ...(thoughts ? { thoughts } : {}), usage, modelMs, failed: true });
  }
  return error;
}

/**
 * A step's fenced blocks, read as its reply is: one that reads as a call is kept from the person,
 * and one that calls a tool the page offers (`offered`) ends the prose shown, as a tagged call does.
 * A block is asked about twice as it closes: it is parsed once. Where the reply is read by
 * parseToolCalls (`readByParseToolCalls`, not a format's own reading), a block that does not start
 * as any call it reads shows as it streams.
 */
export function judgeFences(parse: (reply: string) => ParseResult, offered: ReadonlySet<string>, readByParseToolCalls: boolean): FenceJudge {
  let last: { block: string; parsed: ParseResult } | undefined;
  const parsed = (block: string) => {
    if (last?.block !== block) last = { block, parsed: parse(block) };
    return last.parsed;
  };
  return {
    // A fence left empty once the prose filter took a tagged call out of it is markup too.
    isCall: (block) => {
      if (isEmptyFence(block)) return true;
      const { calls, errors } = parsed(block);
      return calls.length > 0 || errors.length > 0;
    },
    endsProse: (block) => callsAnOfferedTool(parsed(block), offered),
    mayBeCall: (start) => !readByParseToolCalls || mayOpenFencedCall(start) || mayOpenCodeCall(start, offered),
  };
}

/** How many times one step's prompt is made smaller before the run gives up. */
const maxRefits = 3;

/**
 * An error whose `code` says the prompt was longer than the model's context (see LanguageModel),
 * with the model's context where the error says it.
 */
function contextFullError(error: unknown): { contextTokens?: number } | undefined {
  const { code, contextTokens } = engineErrorFields(error);
  if (code !== 'context-full') return undefined;
  return contextTokens !== undefined ? { contextTokens } : {};
}
