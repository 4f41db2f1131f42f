import { atLineStart, nextFence, settlingFence } from './parsing/fences';

/** How a reply's fenced blocks are judged as they close (see createFencedCallHolder). */
export interface FenceJudge {
  /** The block reads as a call, or as a call's markup: it is kept from the person. */
  isCall: (block: string) => boolean;
  /** Of those, a block after which the reply's prose is no more shown: a call to a tool the page offers. */
  endsProse: (block: string) => boolean;
  /**
   * Whether a block still open, whose start is `start` (its fence and what came after it so far, at
   * most `judgedStart` characters), may yet be judged a call once it closes. Where it may not, the
   * block is prose, shown as it streams: the code of an answer need not wait for its closing fence.
   */
  mayBeCall: (start: string) => boolean;
}

/** Shows streamed prose except ``` fenced blocks that turn out to be calls. */
export interface FencedCallHolder {
  /** Takes the next prose and returns what is safe to show so far. */
  push(prose: string): string;
  /** At the end of the reply: what is left to show (an unclosed block that is not a call). */
  flush(): string;
  /** What is held now, unjudged (an unclosed block, or a "`" that may start one). */
  held(): string;
  /** The blocks judged to be calls and not shown, in order. */
  readonly hidden: readonly string[];
  /** Where, in the prose shown, the first hidden block that ends the prose opened, once one did. */
  readonly firstHiddenAt: number | undefined;
  /** Which of `hidden` that block is, once there is one. */
  readonly endingBlock: number | undefined;
}

/** How much of an open block's start FenceJudge.mayBeCall reads: a call shows its shape sooner. */
const judgedStart = 256;

/** Where no fenced block is judged a call, every one is shown as it streams. */
export const noFencedCalls: FenceJudge = { isCall: () => false, endsProse: () => false, mayBeCall: () => false };

/**
 * Holds each fenced block of a reply until it closes (its fences paired as the parse pairs them:
 * see settlingFence), then shows it only if `judge.isCall` says it is not a call, so a call fenced
 * in the middle of a reply (Llama 3, small models asked for `<tool_call>` tags) never flashes up
 * as prose before its card. A block whose start `judge.mayBeCall` says no call has is shown as it
 * streams instead, up to any fence that may close it, and is not judged. Prose outside fences passes
 * at once; backticks at the end wait for the next chunk, which may make or lengthen a fence. Of the
 * blocks hidden, `judge.endsProse` tells those after which the reply's prose is no more to be
 * shown (a call to a tool the page offers), as opposed to one that only looks like a call (a tool
 * the page does not offer, an example).
 */
export function createFencedCallHolder(judge: FenceJudge): FencedCallHolder {
  return new Holder(judge);
}

class Holder implements FencedCallHolder {
  readonly hidden: string[] = [];
  firstHiddenAt: number | undefined;
  endingBlock: number | undefined;
  private readonly judge: FenceJudge;
  // What is neither shown nor hidden yet: an unclosed block, or backticks that may start one.
  private pending = '';
  // Where `pending` starts in the prose shown (the hidden blocks left out).
  private pendingAt = 0;
  private inFence = false;
  // Only spaces or tabs came since the last line's end before `pending`: a fence there opens a block.
  private pendingAtLineStart = true;
  // Where in `pending` a fence at a line's start after a mention waits for its line to end (see settling).
  private lineFenceAt: number | undefined;
  // The open block that starts `pending` is prose (see FenceJudge.mayBeCall): its start is shown.
  private released = false;
  // How much of `pending` is shown, of a block released.
  private shownOfPending = 0;
  // How much of the open block's start was last judged by `judge.mayBeCall`.
  private startAsked = 0;

  constructor(judge: FenceJudge) {
    this.judge = judge;
  }

  push(prose: string): string {
    // Inside a long block, look for its close only in what is new (and the backticks before it
    // may be one), or from a fence that waits for the end of its line.
    let closeFrom = this.inFence ? (this.lineFenceAt ?? this.pending.length - trailingBackticks(this.pending)) : 0;
    this.pending += prose;
    let shown = '';
    for (;;) {
      if (!this.inFence) {
        const open = nextFence(this.pending);
        if (open === undefined) return shown + this.take(this.pending.length - trailingBackticks(this.pending));
        shown += this.take(open.at);
        this.inFence = true;
      }
      const settling = this.settling(closeFrom);
      closeFrom = 0;
      if (settling === undefined) return shown + this.showReleased();
      // A fence that closes nothing was a mention: the prose up to the next fence is shown.
      shown += settling.closes ? this.judgeBlock(settling.fence.end) : this.take(settling.fence.at);
      this.inFence = !settling.closes;
    }
  }

  flush(): string {
    const wasFence = this.inFence;
    this.inFence = false;
    return wasFence ? this.judgeBlock(this.pending.length) : this.take(this.pending.length);
  }

  held(): string {
    return this.pending.slice(this.shownOfPending);
  }

  /** What is new of the open block, once it is known to be prose: up to a fence that may settle it. */
  private showReleased(): string {
    const upTo = this.lineFenceAt ?? this.pending.length - trailingBackticks(this.pending);
    // The same start as last asked has the same answer: a long block is asked about no more.
    const start = Math.min(upTo, judgedStart);
    if (!this.released && start > this.startAsked) {
      this.startAsked = start;
      this.released = !this.judge.mayBeCall(this.pending.slice(0, start));
    }
    if (!this.released) return '';
    const shown = this.pending.slice(this.shownOfPending, upTo);
    this.shownOfPending = Math.max(this.shownOfPending, upTo);
    return shown;
  }

  /** The fence that settles the one `pending` starts with (see settlingFence), once it is whole. */
  private settling(from: number): ReturnType<typeof settlingFence> {
    const open = nextFence(this.pending);
    const openAtLineStart = this.pendingAtLineStart;
    const settling = open && settlingFence(this.pending, open, { from: Math.max(open.end, from), openAtLineStart });
    // A fence that ends what came so far may go on in the next chunk; after a mention, one at a
    // line's start is judged by its whole line (a language alone there opens a block).
    this.lineFenceAt = undefined;
    if (!settling || settling.fence.end >= this.pending.length) return undefined;
    const byItsLine = !openAtLineStart && atLineStart(this.pending, settling.fence.at);
    const waits = byItsLine && !this.pending.includes('\n', settling.fence.end);
    this.lineFenceAt = waits ? settling.fence.at : undefined;
    return waits ? undefined : settling;
  }

  /** Takes `pending`'s first `length` characters on: returns those not shown yet. */
  private take(length: number): string {
    const taken = this.pending.slice(0, length);
    const fresh = taken.slice(this.shownOfPending);
    this.pending = this.pending.slice(length);
    this.pendingAt += length;
    [this.released, this.shownOfPending, this.startAsked] = [false, 0, 0];
    const lineEnd = taken.lastIndexOf('\n');
    this.pendingAtLineStart = /^[ \t]*$/.test(taken.slice(lineEnd + 1)) && (lineEnd !== -1 || this.pendingAtLineStart);
    return fresh;
  }

  /** Takes the block that starts `pending`, `length` long: shown unless it is a call (one whose start is none is prose). */
  private judgeBlock(length: number): string {
    const at = this.pendingAt;
    const prose = this.released || !this.judge.mayBeCall(this.pending.slice(0, Math.min(length, judgedStart)));
    const block = this.take(length);
    if (prose || !this.judge.isCall(block)) return block;
    this.hidden.push(block);
    this.pendingAt -= block.length;
    if (this.endingBlock === undefined && this.judge.endsProse(block)) {
      [this.firstHiddenAt, this.endingBlock] = [at, this.hidden.length - 1];
    }
    return '';
  }
}

/** How many backticks `text` ends with: they may be the start, or the rest, of a fence. */
function trailingBackticks(text: string): number {
  let start = text.length;
  while (text[start - 1] === '`') start -= 1;
  return text.length - start;
}
