// The shown tool a parse error names whose arguments were no object: its card names it, and the
// model is expected to call it again, so the prose after the call is held as after any call.

/** The offered tool a parse error names, whose arguments were not an object (see argumentsMessage). */
export function argumentlessToolName(message: string): string | undefined {
  return /^Arguments for "(.*)" must be a JSON object\.$/s.exec(message)?.[1];
}
