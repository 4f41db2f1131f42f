/** A failure as the options page shows it: what happened, and what to do if anything. */
export interface Failure {
  message: string;
  hint?: string;
}

/** Engine errors carry a hint; anything else is shown by its message. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof Error) {
    const hint = (error as { hint?: unknown }).hint;
    return typeof hint === 'string' ? { message: error.message, hint } : { message: error.message };
  }
  return { message: String(error) };
}
