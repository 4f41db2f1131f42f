/**
 * "1 token", "2 tokens", "0.5 tokens", "2,801 runs": English counts, for nouns that add an s, with
 * the thousands parted as the rest of the extension's figures are.
 */
export function plural(count: number, noun: string): string {
  return `${figure(count)} ${noun}${count === 1 ? '' : 's'}`;
}

// One formatter for every figure: making one per call costs some 50 µs, a list of rows a frame.
let figures: Intl.NumberFormat | undefined;

/** A number as the extension writes figures: "2,801", "0.5" (at most three decimals). */
export function figure(count: number): string {
  figures ??= new Intl.NumberFormat('en-US');
  return figures.format(count);
}
