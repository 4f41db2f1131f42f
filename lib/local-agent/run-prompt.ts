import type { ChatMessage } from '@webmcp-agents/chat';
import type { AgentEvent, ShownTool } from './agent-events';
import { estimateMessageTokens, estimateTokens, messageFrameTokens } from './estimate-tokens';
import { fitShownTools, replyRoom, systemPromptRoom } from './fit-shown-tools';
import { leastResultTokens, leftOutTokens, leftOutToolOutput, shareResultRoom } from './fit-tool-replies';
import type { PromptFormat } from './formats';
import { messagesTokens } from './messages-tokens';
import { outputsRead, type StepResults } from './step-results';
import { createSystemPromptCache } from './system-prompt-cache';
import { createFenceMarker, toolRepliesForModel, type CallReply } from './tool-output-text';
import { withoutOlderHalf, withoutOldestTurn } from './without-oldest-turn';

export interface RunPromptOptions {
  format: PromptFormat;
  request: string;
  instructions: string;
  /** Earlier turns of the conversation, oldest first. */
  history: readonly ChatMessage[];
  /** Characters of a tool's output the model reads. */
  toolOutputLimit: number;
  /** Tokens the model reads at once, where known (see RunLocalAgentOptions). */
  contextTokens: number | undefined;
  /** The most tokens a reply may take (see RunLocalAgentOptions). */
  replyTokens: number;
  emit(event: AgentEvent): void;
}

/** The prompt of one step: the tools it shows, and its messages in order, the system prompt first. */
export interface StepPrompt {
  shown: readonly ShownTool[];
  messages: ChatMessage[];
}

/**
 * The prompts of one run, fitted to the model's context: the system prompt with the tools that
 * fit, the earlier turns, and the run's own messages (the request, the model's replies and the
 * tools' results), whose results are cut to the room each prompt leaves them. Where the newest
 * results would have too little room, the oldest turns of the history give way first, then the
 * oldest steps of the run. A model that finds a prompt too long gets a smaller one (see shrink).
 */
export class RunPrompt {
  /** The messages the run added: the request, replies and results, as the model last read them. */
  readonly messages: ChatMessage[];
  /** The first step whose reply and results the prompt still shows. */
  firstShownStep = 1;

  private readonly systemPrompt: (shown: readonly ShownTool[]) => string;
  private readonly fenceMarker = createFenceMarker();
  private history: readonly ChatMessage[];
  // The context the prompt is fitted to: the model's own, until the model finds a prompt longer
  // than its context after all (the estimate counted short); then less, for the rest of the run.
  // The tools are fitted to a context of their own, which only a smaller context cuts.
  private contextTokens: number | undefined;
  private toolsContextTokens: number | undefined;
  private readonly stepResults: StepResults[] = [];
  // The last prompt given, the system prompt first, which `shrink` measures.
  private lastMessages: readonly ChatMessage[] = [];

  constructor(private readonly options: RunPromptOptions) {
    this.messages = [{ role: 'user', content: options.request }];
    this.history = options.history;
    this.systemPrompt = createSystemPromptCache(options.format, options.instructions);
    this.contextTokens = this.toolsContextTokens = options.contextTokens;
  }

  /**
   * The next prompt, showing the best of `ranked` that fit. The tools shown and the system prompt
   * are fitted beside the whole history, so that they stay the same all run.
   */
  next(ranked: readonly ShownTool[]): StepPrompt {
    const { shown, system } =
      this.toolsContextTokens === undefined
        ? { shown: ranked, system: this.systemPrompt(ranked) }
        : fitShownTools(ranked, systemPromptRoom(this.toolsContextTokens, this.options.request, this.options.history, this.options.replyTokens), this.systemPrompt);
    const runMessages = this.fitRunMessages(system);
    const messages: ChatMessage[] = [{ role: 'system', content: system }, ...this.history, ...runMessages];
    this.lastMessages = messages;
    return { shown, messages };
  }

  /**
   * Whether these tools together fit the room the shown tools are fitted to, so that tried first
   * they are all shown (see fitShownTools). Any tools fit a context that is not known.
   */
  fitsTools(tools: readonly ShownTool[]): boolean {
    if (this.toolsContextTokens === undefined) return true;
    return estimateTokens(this.systemPrompt(tools)) <= systemPromptRoom(this.toolsContextTokens, this.options.request, this.options.history, this.options.replyTokens);
  }

  /** Whether a prompt the model found too long can be made smaller: only one fitted to a known context. */
  get canShrink(): boolean {
    return this.contextTokens !== undefined && this.toolsContextTokens !== undefined;
  }

  /**
   * Makes the next prompt smaller after the model found one too long: fitted to the model's own
   * context where it says that is smaller; else an eighth shorter than the refused prompt, as counted
   * here (the refusal proved the estimate counts this text short, and a prompt that merely fits
   * would leave the reply no room): the older half of the history goes first, then up to a quarter
   * of the room of the run's results, then tools (on a page with many, they are most of the prompt);
   * else, with no history, a quarter less room all round (fewer tools may be shown, the results are
   * cut shorter).
   */
  shrink(modelContext: number | undefined): void {
    if (!this.canShrink) return;
    if (modelContext !== undefined && modelContext < this.contextTokens!) {
      this.contextTokens = modelContext;
      this.toolsContextTokens = Math.min(this.toolsContextTokens!, modelContext);
    } else if (this.history.length > 0) {
      const kept = withoutOlderHalf(this.history);
      const runRoom = Math.max(0, this.roomForRun(this.lastMessages[0]?.content ?? ''));
      const cut = Math.ceil(messagesTokens(this.lastMessages) / 8);
      const freed = messagesTokens(this.history) - messagesTokens(kept);
      const fromResults = Math.min(Math.max(0, cut - freed), Math.floor(runRoom / 4));
      const fromTools = Math.max(0, cut - freed - fromResults);
      this.contextTokens! -= freed + fromResults + fromTools;
      this.toolsContextTokens! -= fromTools;
      this.history = kept;
    } else {
      this.contextTokens = Math.floor((this.contextTokens! * 3) / 4);
      this.toolsContextTokens = Math.floor((this.toolsContextTokens! * 3) / 4);
    }
  }

  /**
   * The model read the last prompt: says, once per step, how much of each of its outputs the model
   * read in the first prompt it answered that shows them (a card shows the person the whole result).
   */
  promptRead(): void {
    for (const results of this.stepResults) {
      if (results.told) continue;
      results.told = true;
      const read = outputsRead(results);
      if (read.some(({ characters, of }) => characters < of)) this.options.emit({ type: 'results-read', step: results.step, results: read });
    }
  }

  /**
   * The model's reply at a step, as it wrote it, an empty reasoning block too (WebLLM starts one for
   * a model told not to think): an engine reuses what it read before only where the history it is
   * sent is what it wrote, character for character.
   */
  addReply(raw: string): void {
    this.messages.push({ role: 'assistant', content: raw });
  }

  /** A step's replies to the model's calls: whole for now, as the next prompt cuts them to its room. */
  addResults(step: number, replies: readonly CallReply[]): void {
    const whole = this.repliesMessage(replies, Number.POSITIVE_INFINITY);
    this.messages.push(whole.message);
    const need = estimateMessageTokens(whole.message);
    // With no room at all, the outputs keep their start and a note (the first few; the rest only
    // the note, see toolRepliesForModel): the step's floor.
    const floor = Math.min(need, estimateMessageTokens(this.repliesMessage(replies, 0).message));
    this.stepResults.push({ step, index: this.messages.length - 1, replies, need, floor, share: Number.POSITIVE_INFINITY, read: whole.read, told: false });
  }

  /**
   * The most tokens the next reply may take: the run's limit, within the room the prompt keeps
   * for it where the context is known (a server refuses a prompt and a limit past its context).
   */
  replyLimit(): number {
    const { replyTokens } = this.options;
    return this.contextTokens === undefined ? replyTokens : Math.min(replyTokens, replyRoom(this.contextTokens, replyTokens));
  }

  // Tokens the run's own messages may take in the next prompt: what the context leaves beside the
  // system prompt, the history and a reply. Unbounded where the context is not known.
  private roomForRun(system: string): number {
    return this.contextTokens === undefined
      ? Number.POSITIVE_INFINITY
      : this.contextTokens - replyRoom(this.contextTokens, this.options.replyTokens) - estimateTokens(system) - messageFrameTokens - messagesTokens(this.history);
  }

  // A step's replies as one message of at most `tokens`, frame included (whole where unbounded).
  private repliesMessage(replies: readonly CallReply[], tokens: number) {
    const limit = { characters: this.options.toolOutputLimit, roomTokens: tokens - messageFrameTokens };
    return toolRepliesForModel(replies, this.options.format, limit, this.fenceMarker);
  }

  /**
   * The run's messages as the next prompt shows them, in what the context leaves the run beside
   * `system`: each step's results cut to their share of the room (see shareResultRoom), and kept so
   * in `messages` as the model reads them, or a note where they are left out. Where the newest
   * results would have less room than they need and `leastResultTokens`, the oldest turns of the
   * history give way first, then the oldest steps of the run.
   */
  private fitRunMessages(system: string): ChatMessage[] {
    const { messages, stepResults } = this;
    if (stepResults.length === 0) return [...messages];
    const resultAt = () => new Set(stepResults.map(({ index }) => index));
    const others = () => messages.reduce((sum, message, index) => sum + (resultAt().has(index) ? 0 : estimateMessageTokens(message)), 0);
    const newest = stepResults.at(-1)!;
    const newestWants = Math.min(newest.need, Math.max(newest.floor, leastResultTokens));
    // What the newest could have with every older step left out.
    const newestRoom = () => this.roomForRun(system) - others() - (stepResults.length - 1) * leftOutTokens;
    while (this.history.length > 0 && newestRoom() < newestWants) this.history = withoutOldestTurn(this.history);
    // A long run then gives up its oldest steps whole: the reply that made the calls and their results.
    while (stepResults.length > 1 && newestRoom() < newestWants) this.dropOldestStep();
    const newestFirst = [...stepResults].reverse();
    const shares = shareResultRoom(newestFirst, this.roomForRun(system) - others());
    newestFirst.forEach((results, at) => {
      const share = shares[at];
      // Whole where the share holds it: cutting to the very figure could lose a token to rounding.
      const cutTo = share === undefined || share < results.need ? share : Number.POSITIVE_INFINITY;
      if (cutTo !== results.share) {
        const cut = cutTo === undefined ? undefined : this.repliesMessage(results.replies, cutTo);
        messages[results.index] = cut?.message ?? { ...messages[results.index]!, content: leftOutToolOutput };
        results.read = cut?.read ?? results.read.map(() => 0);
        results.share = cutTo;
      }
    });
    return [...messages];
  }

  // The oldest step leaves the run's messages: the model's reply before its results, and them.
  private dropOldestStep(): void {
    const oldest = this.stepResults.shift()!;
    this.messages.splice(oldest.index - 1, 2);
    this.firstShownStep = oldest.step + 1;
    for (const results of this.stepResults) results.index -= 2;
  }
}
