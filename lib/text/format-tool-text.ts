import { indentJson } from './indent-json';

/**
 * A result as the inspector and the trace viewer's replay show it: JSON laid out two spaces a level (its values as the page
 * wrote them), anything else as it came. Deep nesting that would make it four times longer, and
 * more than 100,000 characters, is shown as it came.
 */
export function formatToolText(text: string): string {
  return indentJson(text, Math.max(100_000, 4 * text.length)) ?? text;
}
