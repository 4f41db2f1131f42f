// Which question to the server may still answer: a Connect, or the address changing, makes an
// earlier one moot. Kept apart so the connection's parts share one count.
export interface ServerAsks {
  /** Counts a new question (or a change that makes earlier ones moot); answers its number. */
  next(): number;
  /** Whether the question numbered `ask` is still the last one asked. */
  isLatest(ask: number): boolean;
}

export function createServerAsks(): ServerAsks {
  let asked = 0;
  return {
    next: () => (asked += 1),
    isLatest: (ask) => ask === asked,
  };
}
