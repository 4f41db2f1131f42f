import { MAX_CALLS_PER_REPLY, type CallCollector } from './call-collector';
import { readJsonReply } from './read-json-reply';
import { MISTRAL_OPEN, readNearMiss } from './read-whole-reply';
import { fencedBlocks, languageEnd } from './fences';
import { trimRange } from './text-range';

/**
 * The third shape: fences (```json or a bare ```, paired as everywhere else: see fencedBlocks)
 * whose body is a JSON call or an array of them. Those fences leave the prose; others stay.
 * Returns the prose left, or null when no fence held a call. A fence in another language, or a
 * body wrapped in a tag, counts only when every call in it names an offered tool.
 */
export function readFencedCalls(text: string, collector: CallCollector): string | null {
  const kept: string[] = [];
  let keptFrom = 0;
  let found = false;
  // Past this many fences the reply is a code listing, not calls: the rest stays prose unread.
  for (const { open, close } of fencedBlocks(text).slice(0, MAX_CALLS_PER_REPLY)) {
    if (collector.full) break;
    const bodyStart = languageEnd(text, open.end);
    const language = text.slice(open.end, bodyStart).toLowerCase();
    if (readFenceBody(text, language, bodyStart, close?.at ?? text.length, collector)) {
      kept.push(text.slice(keptFrom, open.at));
      keptFrom = close?.end ?? text.length;
      found = true;
    }
  }
  if (!found) return null;
  kept.push(text.slice(keptFrom));
  return kept.join('');
}

function readFenceBody(text: string, language: string, bodyStart: number, bodyEnd: number, collector: CallCollector): boolean {
  const [start, end] = trimRange(text, bodyStart, bodyEnd);
  if (start >= end) return false;
  if ((language === '' || language === 'json') && readJsonReply(text, start, end, collector).kind === 'calls') return true;
  return readNearMiss(text, start, end, collector, false);
}

/**
 * Whether a fenced block still open (`block`, from its opening fence to what came so far) may yet
 * be read as a call by readFencedCalls, however it goes on: its body is blank so far, or starts as
 * a JSON call, a Mistral list, a function tag or a tag around one of those does. Once it cannot,
 * the block is prose, and may be shown as it streams.
 */
export function mayOpenFencedCall(block: string): boolean {
  const open = openBlock(block);
  return open === undefined || mayOpenNearMiss(open.body.trimStart(), true);
}

/**
 * The language and the body so far of a block still open (`block` starts with its fence), without
 * the backticks at its end, which may be the fence that closes it; undefined while the fence or
 * its language may still go on (the block may yet name another).
 */
export function openBlock(block: string): { language: string; body: string } | undefined {
  let fenceEnd = 0;
  while (block[fenceEnd] === '`') fenceEnd += 1;
  const bodyStart = languageEnd(block, fenceEnd);
  if (bodyStart === block.length) return undefined;
  return { language: block.slice(fenceEnd, bodyStart).toLowerCase(), body: block.slice(bodyStart).replace(/`+$/, '') };
}

/** What readNearMiss, and readJsonReply before it, may read as calls can start as `text` does. */
function mayOpenNearMiss(text: string, unwrap: boolean): boolean {
  if (text === '' || text[0] === '{') return true;
  if (text[0] === '[') {
    const next = text.slice(1).trimStart();
    return next === '' || next[0] === '{' || startsAs(text, MISTRAL_OPEN);
  }
  if (text[0] !== '<') return false;
  if (startsAs(text, '<function=') || startsAs(text, '<function name=')) return true;
  if (!unwrap) return false;
  // A tag around the calls, `<calls>…`: its name so far, then what it wraps.
  const name = /^<[A-Za-z0-9_-]{0,39}/.exec(text)![0];
  if (name.length === text.length) return true;
  return name.length > 1 && text[name.length] === '>' && mayOpenNearMiss(text.slice(name.length + 1).trimStart(), false);
}

/** `text` starts with `opening`, or is its start so far. */
function startsAs(text: string, opening: string): boolean {
  return text.startsWith(opening) || opening.startsWith(text);
}
