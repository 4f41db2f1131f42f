// The road each delta of a streamed reply takes (see streamReply), apart from the reading of the
// stream: raw to the trace, then own turn, call watch, prose filter and the two holds before the person.
import type { AgentEvent } from './agent-events';
import { createBareCallHolder } from './bare-call-holder';
import { createCallWatch, type LoopCut } from './call-watch';
import { createFencedCallHolder, type FenceJudge, type FencedCallHolder } from './fenced-call-holder';
import { createOwnTurn } from './own-turn';
import { createProseFilter } from './prose-filter';

/** One reply's text as it streams, and what of it is kept and shown. */
export interface ReplyPipeline {
  /** Takes the next raw delta: emits it as `text-delta`, and as `prose-delta` what may be shown. */
  push(text: string): void;
  /**
   * The reply has gone past the model's own turn (see createOwnTurn), or is plainly looping (the
   * same call written over: see CallWatch): nothing it writes from here is kept.
   */
  readonly over: boolean;
  /** Where the engine cut the reply off (its length limit, or the end of the context): ends it as looping, if one call, or run of calls, was written three times in a row by then (see CallWatch). */
  endLoop(): boolean;
  /** At the end of the reply: emits what is left to show. */
  finish(): void;
  /**
   * On a failed or stopped reply: emits what was held, all the person gets of it, except what
   * reads as a call (a call cut short is not an answer either).
   */
  showUnshown(): void;
  /** The reply as the model wrote it. */
  raw(): string;
  /** Its own turn, as parsed and kept: to where a loop was cut, its call tag closed, if it looped (see CallWatch). */
  text(): string;
  /** Where its first call opened in `text()`: the prose after it was not shown (see createReplyPipeline). */
  firstCallAt(): number | undefined;
  /** What the bare-call hold kept to the end (see createBareCallHolder). */
  heldProse(): string | undefined;
  /** Fenced blocks kept from the person because they read as calls. */
  readonly hiddenBlocks: readonly string[];
  /** Which of them ended the prose shown (see createFencedCallHolder), once one did. */
  readonly endingBlock: number | undefined;
}

/**
 * One reply's pipeline, whose events carry `step`; `judge` judges each fenced block. Prose that
 * follows a tagged call, or a fenced block that calls a tool the page offers, is not shown: a
 * small model writes the outcome it expects ("Done! I added two mugs") before the call has run,
 * or been allowed. The model reads it all.
 */
export function createReplyPipeline(step: number, emit: (event: AgentEvent) => void, judge: FenceJudge): ReplyPipeline {
  const { ownTurn, calls, filter, fences, bareCall } = createStages(judge);
  const parts: string[] = [];
  const ownParts: string[] = [];
  const show = (prose: string) => showProse(bareCall.show(prose), step, emit);
  return {
    push(text) {
      parts.push(text);
      emit({ type: 'text-delta', step, text });
      const own = ownTurn.push(text);
      if (!own) return;
      ownParts.push(own);
      const prose = filter.push(calls.push(own));
      if (prose) show(fences.push(prose));
    },
    get over() {
      return ownTurn.over || calls.loopCut !== undefined;
    },
    endLoop: () => calls.endLoop(),
    finish() {
      const ownRest = ownTurn.flush();
      ownParts.push(ownRest);
      // After a call, what the filter holds is part of its markup or of the prose held back.
      show(fences.push(filter.push(calls.push(ownRest)) + (calls.firstCallAt === undefined ? filter.flush() : '')));
      show(fences.flush());
    },
    showUnshown() {
      showProse([bareCall.held() ?? '', fences.held()].filter((text) => text.trim() && !judge.isCall(text)).join(''), step, emit);
    },
    raw: () => parts.join(''),
    text: () => keptText(ownParts.join(''), calls.loopCut),
    firstCallAt: () => calls.firstCallAt,
    heldProse: () => bareCall.held(),
    hiddenBlocks: fences.hidden,
    get endingBlock() {
      return fences.endingBlock;
    },
  };
}

/** The stages each delta goes through, in order: own turn, call watch, prose filter and the two holds. */
function createStages(judge: FenceJudge) {
  return {
    ownTurn: createOwnTurn(),
    calls: createCallWatch(),
    filter: createProseFilter(),
    fences: untilFencedCall(createFencedCallHolder(judge)),
    bareCall: createBareCallHolder(),
  };
}

/**
 * The fence holder, showing nothing from the first block that ends the prose on (a call that will
 * run), as the call watch does from a tagged call. That block's start in what the holder showed
 * says where to cut.
 */
function untilFencedCall(fences: FencedCallHolder): FencedCallHolder {
  let passed = 0;
  const cut = (shown: string) => {
    const at = fences.firstHiddenAt;
    const before = at === undefined ? shown : shown.slice(0, Math.max(0, at - passed));
    passed += shown.length;
    return before;
  };
  return {
    hidden: fences.hidden,
    get firstHiddenAt() {
      return fences.firstHiddenAt;
    },
    get endingBlock() {
      return fences.endingBlock;
    },
    push: (prose) => cut(fences.push(prose)),
    flush: () => cut(fences.flush()),
    held: () => (fences.firstHiddenAt === undefined ? fences.held() : ''),
  };
}

/** A reply's own turn as the model reads it back: to where a loop was cut, if it looped. */
function keptText(own: string, loopCut: LoopCut | undefined): string {
  return loopCut === undefined ? own : own.slice(0, loopCut.end) + loopCut.closing;
}

/** Emits prose for the person, if there is any. */
function showProse(text: string, step: number, emit: (event: AgentEvent) => void): void {
  if (text) emit({ type: 'prose-delta', step, text });
}
