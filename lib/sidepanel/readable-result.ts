import { cardResultLimit } from '../agent/apply-agent-event';
import { indentJson } from '../text/indent-json';

/**
 * A tool's result as a card shows it: a JSON object or array laid out with two-space indents, so
 * a person can read its fields; anything else as the page wrote it. A result longer than a card
 * keeps was cut, so is no JSON any more: it is not parsed, and a huge one costs nothing here.
 */
export function readableResult(text: string): string {
  if (text.length > cardResultLimit) return text;
  return indentJson(text, 4 * cardResultLimit) ?? text;
}
