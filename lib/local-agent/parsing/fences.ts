// How a reply's code fences pair, in one place: the stream (the fence holder), the parse and the
// step's end read the same blocks, so the prose that streamed is the prose the step ends with.

/** A run of three backticks or more, from `at` to `end`: a fence that opens a block or closes one. */
export interface Fence {
  at: number;
  end: number;
}

/** A fenced block: its opening fence, and its closing one where it closed. */
export interface FencedBlock {
  open: Fence;
  close: Fence | undefined;
}

/** The first fence that starts at `from` or after it, whole: the run's backticks before `from` are no fence. */
export function nextFence(text: string, from = 0): Fence | undefined {
  // indexOf, not a regular expression: a reply's prose is read this way at every chunk.
  for (let at = text.indexOf('```', from); at !== -1; ) {
    let end = at + 3;
    while (text[end] === '`') end += 1;
    if (text[at - 1] !== '`') return { at, end };
    at = text.indexOf('```', end);
  }
  return undefined;
}

/** Only spaces or tabs come before `at` on its line. */
export function atLineStart(text: string, at: number): boolean {
  return /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', at - 1) + 1, at));
}

/**
 * The next fence after `open` (looked for from `from` on) that settles it: one that closes its
 * block (`closes`), or, for a fence opened inside a line ("Use ``` for code."), a fence at a line's
 * start that opens a block of its own: the first was no fence but a mention. As in CommonMark, a
 * fence closes a block when it is at least as long as the opening one (a ``` sample stays inside a
 * ```` block). Small models end a block as they like ("```Done!", "```json" again, "```."), so
 * anything may follow a closing fence, but after a mention a line of a fence and a language alone
 * ("```json") opens the block the mention was not. A fence inside a line that prose follows on its
 * line ("Use ``` for code.") is a mention whatever comes next, as in CommonMark, where a fence at a
 * line's start always opens a block; one that a language, a call's brace or nothing follows ("Here
 * it is: ```json") opens a block there, as small models write them.
 */
export function settlingFence(
  text: string,
  open: Fence,
  { from = open.end, openAtLineStart = atLineStart(text, open.at) } = {},
): { fence: Fence; closes: boolean } | undefined {
  let mention: boolean | undefined;
  for (let fence = nextFence(text, from); fence; fence = nextFence(text, fence.end)) {
    const longEnough = fence.end - fence.at >= open.end - open.at;
    // Read once, when a fence at a later line's start is found: by then the mention's line is whole.
    const opensOwn = !openAtLineStart && atLineStart(text, fence.at) && (!longEnough || namesLanguageAlone(text, fence) || (mention ??= proseFollows(text, open)));
    if (opensOwn || longEnough) return { fence, closes: !opensOwn };
  }
  return undefined;
}

/** Where the language a block names after its opening fence, at `from`, ends ("json", "c++", "objective-c"). */
export function languageEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && /[\w+.-]/.test(text[end]!)) end += 1;
  return end;
}

/** Prose follows the fence on its line: not a language alone, nor one before a call's brace (`json {"name": …`). */
function proseFollows(text: string, fence: Fence): boolean {
  const lineEnd = text.indexOf('\n', fence.end);
  const rest = text.slice(fence.end, lineEnd === -1 ? undefined : lineEnd);
  return /\S/.test(rest) && !/^[\w+.-]*[ \t]*([{[]|$)/.test(rest);
}

/** The fence's line is the fence and a language, nothing else ("```json"): a block's opening line. */
function namesLanguageAlone(text: string, fence: Fence): boolean {
  const end = languageEnd(text, fence.end);
  const lineEnd = text.indexOf('\n', end);
  return end > fence.end && /^[ \t]*$/.test(text.slice(end, lineEnd === -1 ? undefined : lineEnd));
}

/** The fenced blocks of `text` in order, the last one open where no fence closes it. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  for (let open = nextFence(text); open; ) {
    const settling = settlingFence(text, open);
    if (settling?.closes === false) {
      open = settling.fence;
      continue;
    }
    blocks.push({ open, close: settling?.fence });
    open = settling && nextFence(text, settling.fence.end);
  }
  return blocks;
}
