import { countGraphemes, cutGraphemes } from '../text/cut-graphemes';

/** A request longer than this, in characters or in lines, is shown by its start until the person asks for all of it. */
const requestPreviewLimits = { characters: 600, lines: 12 };
/** How much of a long request its start shows. */
const previewSize = { characters: 400, lines: 8 };
/** How far back from the cut a space is looked for, so that the start ends on a whole word. */
const wordLookBack = 40;

/**
 * The start of a long request, as its bubble shows it until the person asks for all of it: some
 * eight lines, ended on a whole word, then "…". Undefined for a request short enough to show whole
 * (a pasted page would otherwise push every earlier turn screens away).
 */
export function requestPreview(request: string): string | undefined {
  const lines = request.split('\n');
  if (request.length <= requestPreviewLimits.characters && lines.length <= requestPreviewLimits.lines) return undefined;
  const firstLines = lines.slice(0, previewSize.lines).join('\n');
  let start = cutGraphemes(firstLines, previewSize.characters);
  // Cut inside a word: back to the space before it, where one is near.
  if (start.length < firstLines.length && !/\s/.test(firstLines[start.length]!)) {
    const space = start.search(/\s\S*$/);
    if (space >= start.length - wordLookBack && space > 0) start = start.slice(0, space);
  }
  return `${start.trimEnd()} …`;
}

/**
 * What a long request's button shows of it: "Show all 30 lines" where its lines were too many,
 * else "Show all 1,200 characters", each character as a reader counts it (a flag is one).
 */
export function showAllWords(request: string): string {
  const lines = request.split('\n').length;
  if (lines > requestPreviewLimits.lines) return `Show all ${lines.toLocaleString('en-US')} lines`;
  return `Show all ${countGraphemes(request).toLocaleString('en-US')} characters`;
}
