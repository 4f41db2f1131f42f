// A call written as code rather than in the format's call markup: read as a call written wrong,
// so that the model is told how to write it instead of the run ending with code for an answer.
import { cutText } from './cut-text';
import type { PromptFormat } from './formats/prompt-format';
import { MAX_CALLS_PER_REPLY } from './parsing/call-collector';
import { fencedBlocks, languageEnd } from './parsing/fences';
import { openBlock } from './parsing/read-fenced-calls';
import { readPythonicCalls } from './parsing/read-pythonic-calls';
import type { ParseResult, ParsedCall } from './types';

/**
 * The most characters of code at a reply's end read for calls: calls written so take a few lines,
 * and a reply is read this way at every step, so a long one must cost no more than a short one.
 */
const longestCode = 2_000;

/** The most lines that start a call read back from a reply's end: each is read to the end. */
const mostCallLines = 16;

/** The longest telling of how to write the calls: past it, the model is only pointed to its system prompt. */
const longestHowTo = 1_000;

/** The languages of a block that holds code to run, as models name it; none named counts too. */
const codeLanguages = new Set(['', 'tool_code', 'tool_call', 'python', 'py']);

/**
 * The parse of a reply that ends with calls written as code, `search_products(query="mug")` alone
 * or in a ```tool_code or ```python block (as Gemma and small Qwen models write them), to tools of
 * the page: none of the documented shapes, so the parse found no call, and the run would end with
 * the code as its answer. It is read instead as a call written wrong: nothing runs, the model is
 * told how to write each call in its format (`format.howToCall`), and the code leaves the prose
 * the person reads. Any other parse is returned as it is, as is one that found a call or an error.
 */
export function withCallsWrittenAsCode(parsed: ParseResult, pageTools: ReadonlySet<string>, format: PromptFormat): ParseResult {
  if (parsed.calls.length > 0 || parsed.errors.length > 0) return parsed;
  const code = trailingCode(parsed.text, pageTools);
  if (!code) return parsed;
  return { text: parsed.text.slice(0, code.at).trimEnd(), calls: [], errors: [writtenAsCodeMessage(code.text, code.calls, format)] };
}

/**
 * Whether a fenced block still open (`block`, from its opening fence to what came so far) may yet
 * end as calls written as code to `pageTools` (see trailingCode): its language holds code, and
 * its body is blank so far, or starts as a call to one of them does (`search_products(`,
 * `[open_cart(`). Once it cannot, the block is prose (as far as this reading goes), and may be
 * shown as it streams.
 */
export function mayOpenCodeCall(block: string, pageTools: ReadonlySet<string>): boolean {
  const open = openBlock(block);
  if (open === undefined) return true;
  if (!codeLanguages.has(open.language)) return false;
  const code = open.body.trimStart();
  const call = (code.startsWith('[') ? code.slice(1) : code).trimStart();
  const name = /^[\w.-]*/.exec(call)![0];
  if (name.length === call.length) return name === '' || [...pageTools].some((tool) => tool.startsWith(name));
  const after = call.slice(name.length).trimStart();
  return pageTools.has(name) && (after === '' || after.startsWith('('));
}

/** Calls to `pageTools` written as code at the end of `text`, where it ends so: where they start, their text and their reading. */
function trailingCode(text: string, pageTools: ReadonlySet<string>): { at: number; text: string; calls: ParsedCall[] } | undefined {
  const end = text.trimEnd().length;
  const block = fencedBlocks(text).at(-1);
  if (block && (block.close?.end ?? text.length) >= end) {
    const languageAt = block.open.end;
    const bodyAt = languageEnd(text, languageAt);
    const bodyEnd = block.close?.at ?? end;
    if (bodyEnd - bodyAt > longestCode) return undefined;
    if (!codeLanguages.has(text.slice(languageAt, bodyAt).toLowerCase())) return undefined;
    const calls = callsOnly(text, bodyAt, bodyEnd, pageTools);
    return calls && { at: block.open.at, text: text.slice(bodyAt, bodyEnd).trim(), calls };
  }
  // Outside a block, the calls are the reply's last lines: read from the last line that starts a
  // call back to the earliest from which all that follows is calls (a line that continues a call
  // begins none). The first line back that starts a call and reads otherwise ends the search, as do
  // the limits above: a long reply is read no more than a short one.
  let found: { at: number; text: string; calls: ParsedCall[] } | undefined;
  let callLines = 0;
  for (let lineEnd = end; lineEnd > 0; lineEnd = text.lastIndexOf('\n', lineEnd - 1)) {
    const at = text.lastIndexOf('\n', lineEnd - 1) + 1;
    if (end - at > longestCode || callLines === mostCallLines) break;
    const start = at + (/^\s*/.exec(text.slice(at, lineEnd))?.[0].length ?? 0);
    const name = /^\[?\s*([\w.-]+)\s*\(/.exec(text.slice(start, Math.min(lineEnd, start + 200)))?.[1];
    if (name === undefined || !pageTools.has(name)) continue;
    callLines += 1;
    const calls = callsOnly(text, start, end, pageTools);
    if (!calls) break;
    found = { at: start, text: text.slice(start, end), calls };
  }
  return found;
}

/** The calls `text` holds from `start` to `end`, where it holds nothing else and each is to a tool of the page. */
function callsOnly(text: string, start: number, end: number, pageTools: ReadonlySet<string>): ParsedCall[] | undefined {
  const code = text.slice(start, end).trim();
  // The reading stops at a list's closing bracket, or at a call's closing parenthesis: nothing may follow.
  if (!(code.startsWith('[') ? code.endsWith(']') : code.endsWith(')'))) return undefined;
  const items = readPythonicCalls(text, start, end);
  // Past the most calls a step takes the reading stops, and what follows is unread.
  if (!items?.length || items.length > MAX_CALLS_PER_REPLY || !items.every((item) => item.ok && pageTools.has(item.name))) return undefined;
  return items.flatMap((item) => (item.ok ? [{ name: item.name, arguments: item.arguments }] : []));
}

function writtenAsCodeMessage(code: string, calls: readonly ParsedCall[], format: PromptFormat): string {
  const quoted = code.length > 200 ? `${cutText(code, 200)}…` : code;
  const told = format.howToCall?.(calls);
  const how = told !== undefined && told.length <= longestHowTo ? told : 'Write each call as the system prompt shows.';
  return `${codeMessageStart}${quoted} was written as code, so nothing ran. ${how}`;
}

const codeMessageStart = "Couldn't read a tool call: ";

/** The tool the first call written as code names, where `message` says calls were written so: its card names it. */
export function codeCallName(message: string): string | undefined {
  if (!message.startsWith(codeMessageStart) || !message.includes(' was written as code, so nothing ran. ')) return undefined;
  return /^\[?\s*([\w.-]+)\s*\(/.exec(message.slice(codeMessageStart.length))?.[1];
}
