/**
 * The longest text a trace keeps in each kind of field. Page and model text is untrusted and can
 * be huge; the recorder cuts it to these, and an imported file must fit them too.
 */
export const traceLimits = {
  id: 200,
  name: 1_000,
  /** A request, a problem message, an error message, one tool's description. */
  message: 20_000,
  /** A tool result as the trace keeps it; the model itself reads less (the tool output limit). */
  result: 20_000,
  url: 8_192,
  /** A prompt message, a raw reply, the prose of a step. */
  long: 400_000,
} as const;

/** `text` cut to `limit` characters, with a note of how much was cut so a reader never mistakes it. */
export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const note = ` … (cut: ${text.length - limit} more characters)`;
  return text.slice(0, Math.max(0, limit - note.length)) + note;
}
