/** "1 token", "2 tokens", "0.5 tokens": English counts, for nouns that add an s. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
