import { atLineStart, nextFence, settlingFence } from './parsing/fences';

/** How a reply's fenced blocks are judged as they close (see createFencedCallHolder). */
export interface FenceJudge {
  /** The block reads as a call, or as a call's markup: it is kept from the person. */
  isCall: (block: string) => boolean;
  /** Of those, a block after which the reply's prose is no more shown: a call to a tool the page offers. */
  endsProse: (block: string) => boolean;
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

/** Where no fenced block is judged a call, every one is shown. */
export const noFencedCalls: FenceJudge = { isCall: () => false, endsProse: () => false };

/**
 * Holds each fenced block of a reply until it closes (its fences paired as the parse pairs them:
 * see settlingFence), then shows it only if `judge.isCall` says it is not a call, so a call fenced
 * in the middle of a reply (Llama 3, small models asked for `<tool_call>` tags) never flashes up
 * as prose before its card. Prose outside fences passes
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
      if (settling === undefined) return shown;
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
    return this.pending;
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

  private take(length: number): string {
    const taken = this.pending.slice(0, length);
    this.pending = this.pending.slice(length);
    this.pendingAt += length;
    const lineEnd = taken.lastIndexOf('\n');
    this.pendingAtLineStart = /^[ \t]*$/.test(taken.slice(lineEnd + 1)) && (lineEnd !== -1 || this.pendingAtLineStart);
    return taken;
  }

  /** Takes the block that starts `pending`, `length` long: shown unless it is a call. */
  private judgeBlock(length: number): string {
    const at = this.pendingAt;
    const block = this.take(length);
    if (!this.judge.isCall(block)) return block;
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
