// Whether a reply (or one fenced block of it) asks for a tool the page offers: the prose the model
// writes after such a call is a claim about a call that has not run, so it is never shown.
import { argumentlessToolName } from './argumentless-tool-name';
import type { ParseResult } from './types';
import { unknownToolName } from './unknown-tool-name';

/**
 * A call to a shown tool, or one the parse refused that still names a tool the page offers (one
 * the step did not show, or given no object of arguments): the model is told it did not run and
 * writes again, so what it wrote after the call says nothing true yet. A call only to a tool the
 * page does not offer asks for nothing that could run: the reply's prose is its answer.
 */
export function callsAnOfferedTool(parsed: ParseResult, offered: ReadonlySet<string>): boolean {
  return parsed.calls.length > 0 || parsed.errors.some((error) => offered.has(unknownToolName(error) ?? argumentlessToolName(error) ?? ''));
}
