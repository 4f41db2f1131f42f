// A code fence a model wrapped around a tagged call is left empty once the call is taken out:
// it is call markup too, and goes with the call.

/**
 * What is left inside a fence emptied of a call: nothing, or its language and white space. A word
 * alone between fences ("```ls```") is inline code the model wrote, and stays.
 */
export function isEmptyFenceBody(body: string): boolean {
  return /^(?:[\w+.-]*\s+)?$/.test(body);
}

/**
 * A block of three backticks or more with nothing inside (see isEmptyFenceBody), or one still open
 * with at most its language: what the prose filter leaves of a tagged call wrapped in a fence.
 */
export function isEmptyFence(block: string): boolean {
  const [, body, close] = /^`{3,}([^`]*)(`{3,})?$/.exec(block) ?? [];
  if (body === undefined) return false;
  return close === undefined ? /^[\w+.-]*\s*$/.test(body) : isEmptyFenceBody(body);
}
