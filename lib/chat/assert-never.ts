/**
 * Ends a switch that lists every member of a union: a member added to the union and left out of
 * the switch fails to compile here. Reached at runtime only by a bug, so it throws.
 */
export function assertNever(value: never): never {
  throw new Error(`A case no switch expected: ${shown(value)}`);
}

function shown(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value);
  }
}
