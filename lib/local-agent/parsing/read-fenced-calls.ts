import { MAX_CALLS_PER_REPLY, type CallCollector } from './call-collector';
import { readJsonReply } from './read-json-reply';
import { readNearMiss } from './read-whole-reply';
import { trimRange } from './text-range';

const FENCE = '```';

/**
 * The third shape: ``` fences (```json or a bare ```) whose body is a JSON call or an array of
 * them. Those fences leave the prose; others stay. Returns the prose left, or null when no fence
 * held a call. A fence in another language, or a body wrapped in a tag, counts only when every
 * call in it names an offered tool.
 */
export function readFencedCalls(text: string, collector: CallCollector): string | null {
  const kept: string[] = [];
  let keptFrom = 0;
  let found = false;
  let cursor = 0;
  // Past this many fences the reply is a code listing, not calls: the rest stays prose unread.
  for (let fences = 0; fences < MAX_CALLS_PER_REPLY && !collector.full; fences += 1) {
    const open = text.indexOf(FENCE, cursor);
    if (open === -1) break;
    let bodyStart = open + FENCE.length;
    while (bodyStart < text.length && /[\w+.-]/.test(text[bodyStart] ?? '')) bodyStart += 1;
    const language = text.slice(open + FENCE.length, bodyStart).toLowerCase();
    const close = text.indexOf(FENCE, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    if (readFenceBody(text, language, bodyStart, bodyEnd, collector)) {
      kept.push(text.slice(keptFrom, open));
      keptFrom = close === -1 ? text.length : close + FENCE.length;
      found = true;
    }
    if (close === -1) break;
    cursor = close + FENCE.length;
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
