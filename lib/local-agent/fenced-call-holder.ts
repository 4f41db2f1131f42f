const FENCE = '```';

/** How a reply's ``` fenced blocks are judged as they close (see createFencedCallHolder). */
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
 * Holds each ``` fenced block of a reply until it closes, then shows it only if `judge.isCall`
 * says it is not a call, so a call fenced in the middle of a reply (Llama 3, small models asked
 * for `<tool_call>` tags) never flashes up as prose before its card. Prose outside fences passes
 * at once; a trailing "`" or "``" waits for the next chunk, which may complete a fence. Of the
 * blocks hidden, `judge.endsProse` tells those after which the reply's prose is no more to be
 * shown (a call to a tool the page offers), as opposed to one that only looks like a call (a tool
 * the page does not offer, an example).
 */
export function createFencedCallHolder(judge: FenceJudge): FencedCallHolder {
  let pending = '';
  // Where `pending` starts in the prose shown (the hidden blocks left out).
  let pendingAt = 0;
  let inFence = false;
  const hidden: string[] = [];
  let firstHiddenAt: number | undefined;
  let endingBlock: number | undefined;
  const take = (length: number) => {
    const taken = pending.slice(0, length);
    pending = pending.slice(length);
    pendingAt += length;
    return taken;
  };
  // Takes the block that starts `pending`, `length` long: shown unless it is a call.
  const judgeBlock = (length: number) => {
    const at = pendingAt;
    const block = take(length);
    if (!judge.isCall(block)) return block;
    hidden.push(block);
    pendingAt -= block.length;
    if (endingBlock === undefined && judge.endsProse(block)) [firstHiddenAt, endingBlock] = [at, hidden.length - 1];
    return '';
  };
  return {
    hidden,
    get firstHiddenAt() {
      return firstHiddenAt;
    },
    get endingBlock() {
      return endingBlock;
    },
    push(prose) {
      // Inside a long block, look for its close only in what is new.
      let closeFrom = inFence ? Math.max(FENCE.length, pending.length - FENCE.length + 1) : FENCE.length;
      pending += prose;
      let shown = '';
      for (;;) {
        if (!inFence) {
          const open = pending.indexOf(FENCE);
          if (open === -1) return shown + take(pending.length - trailingBackticks(pending));
          shown += take(open);
          inFence = true;
        }
        const close = pending.indexOf(FENCE, closeFrom);
        closeFrom = FENCE.length;
        if (close === -1) return shown;
        shown += judgeBlock(close + FENCE.length);
        inFence = false;
      }
    },
    flush() {
      const wasFence = inFence;
      inFence = false;
      return wasFence ? judgeBlock(pending.length) : take(pending.length);
    },
    held: () => pending,
  };
}

function trailingBackticks(text: string): number {
  if (text.endsWith('``')) return 2;
  return text.endsWith('`') ? 1 : 0;
}
