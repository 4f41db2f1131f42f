/**
 * An error told apart by its name (`AbortError`, `NotFoundError`, `TimeoutError`), which is what
 * survives a crossing between the extension's contexts: the name is checked, never the class.
 */
export function namedError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}
