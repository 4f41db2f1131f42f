/** A range of a text with the white space at both ends left out. */
export function trimRange(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && isSpaceCode(text.charCodeAt(from))) from += 1;
  while (to > from && isSpaceCode(text.charCodeAt(to - 1))) to -= 1;
  return [from, to];
}

export function skipSpace(text: string, start: number, end: number): number {
  let position = start;
  while (position < end && isSpaceCode(text.charCodeAt(position))) position += 1;
  return position;
}

export function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0c || code === 0xa0;
}

/** Where `needle` next occurs at or after a position; remembers its last answer, so repeated
 * searches through one text stay linear even when the needle never occurs. */
export function createFinder(text: string, needle: string): (from: number) => number {
  let found = -2;
  let searchedFrom = 0;
  return (from: number) => {
    if (found === -2 || from < searchedFrom || (found !== -1 && found < from)) {
      found = text.indexOf(needle, from);
      searchedFrom = from;
    }
    return found;
  };
}
