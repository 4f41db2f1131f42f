import { MAX_CALLS_PER_REPLY, type CallCollector } from './call-collector';
import { readJsonReply } from './read-json-reply';
import { readNearMiss } from './read-whole-reply';
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
