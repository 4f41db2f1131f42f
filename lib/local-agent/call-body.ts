// A call's arguments as the own-turn cut follows them, so that a tag in one of their strings is
// the page's text, not the model going on past its turn.

/**
 * How far the reading of a call's body has come: how deep in its brackets, and in which string
 * literal (its quote's code; 0 outside one). JSON's strings take `"`, the lenient parse's and
 * LFM2's Python-like calls `'` too.
 */
export interface CallBody {
  depth: number;
  quote: number;
  escaped: boolean;
}

/** A call's body before its first character. */
export function startBody(): CallBody {
  return { depth: 0, quote: 0, escaped: false };
}

/**
 * Reads `text` from `from` to `to` into a call's body; false once its outermost brackets have
 * closed: what follows them is no longer the call's arguments, and a tag there is not in a string.
 */
export function readCallBody(body: CallBody, text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = text.charCodeAt(at);
    if (body.quote !== 0) {
      if (body.escaped) body.escaped = false;
      else if (code === 0x5c /* \ */) body.escaped = true;
      else if (code === body.quote) body.quote = 0;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */ || code === 0x28 /* ( */) {
      body.depth += 1;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */ || code === 0x29 /* ) */) {
      if (body.depth === 0) continue;
      body.depth -= 1;
      if (body.depth === 0) return false;
    } else if ((code === 0x22 /* " */ || code === 0x27 /* ' */) && body.depth > 0) {
      body.quote = code;
    }
  }
  return true;
}
