/**
 * "1 token", "2 tokens", "0.5 tokens", "2,801 runs": English counts, for nouns that add an s, with
 * the thousands parted as the rest of the extension's figures are.
 */
export function plural(count: number, noun: string): string {
  return `${figure(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** A number as the extension writes figures: "2,801", "0.5". */
export function figure(count: number): string {
  return count.toLocaleString('en-US', { maximumFractionDigits: 20 });
}
