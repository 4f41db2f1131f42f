// The tool a parse error names as unknown: the loop answers it, orders it and weighs its prose by it.

/** The tool a parse error says the model asked for and the step did not offer (see unknownToolMessage). */
export function unknownToolName(message: string): string | undefined {
  return /^Unknown tool "(.*)"\. Available now: /s.exec(message)?.[1];
}
