import { cutText } from '../local-agent/cut-text';

/** A value as one line of JSON for a tool card, cut to `maxLength` characters (never within a character). Never throws. */
export function compactJson(value: unknown, maxLength = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxLength ? `${cutText(text, maxLength - 1)}…` : text;
}
