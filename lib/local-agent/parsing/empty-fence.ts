// A code fence a model wrapped around a tagged call is left empty once the call is taken out:
// it is call markup too, and goes with the call.
import { fencedBlocks, languageEnd } from './fences';

/**
 * What is left inside a fence emptied of a call: nothing, or its language and white space. A word
 * alone between fences ("```ls```") is inline code the model wrote, and stays.
 */
export function isEmptyFenceBody(body: string): boolean {
  return body === '' || /^\s+$/.test(body.slice(languageEnd(body, 0)));
}

/**
 * A block with nothing inside (see isEmptyFenceBody), or one still open with at most its language:
 * what the prose filter leaves of a tagged call wrapped in a fence. Its fences pair as the reply's
 * do (see fencedBlocks).
 */
export function isEmptyFence(block: string): boolean {
  const [first, ...more] = fencedBlocks(block);
  if (first?.open.at !== 0 || more.length > 0) return false;
  const { open, close } = first;
  // An open block's language may be all that came yet, with no white space after it.
  if (close === undefined) return isEmptyFenceBody(`${block.slice(open.end).trimEnd()} `);
  return close.end === block.length && isEmptyFenceBody(block.slice(open.end, close.at));
}
