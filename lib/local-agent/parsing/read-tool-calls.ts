import type { ParseResult } from '../types';
import { CallCollector } from './call-collector';
import { isEmptyFenceBody } from './empty-fence';
import { fencedBlocks } from './fences';
import { readFencedCalls } from './read-fenced-calls';
import { readRegionCalls } from './read-region-calls';
import { readWholeReply } from './read-whole-reply';
import { scanMarkup } from './scan-markup';
import { withWrittenOrder } from './written-order';

/**
 * The shapes, in the documented order: call tags (LFM2's and Qwen/Hermes', read together in the
 * order written), then fenced JSON, then the whole reply as JSON. A later shape is tried only
 * when no earlier one was found. `cutAt`: what the text was cut at, where it is the start of a
 * longer reply: a call still open where it ends is not repaired and run, but said to be cut.
 */
export function readToolCalls(text: string, toolNames: ReadonlySet<string>, cutAt?: string): ParseResult {
  const collector = new CallCollector(toolNames);
  const markup = scanMarkup(text);
  let prose = markup.prose;
  if (markup.regions.length > 0) {
    for (const region of markup.regions) {
      if (collector.full) {
        collector.noteLeftOut();
        break;
      }
      if (cutAt !== undefined && region.end === text.length) {
        collector.noteCutAtReadLimit(cutAt);
        break;
      }
      readRegionCalls(text, region.start, region.end, collector);
    }
    // A call the model wrapped in a code fence leaves the fence empty: it is markup too.
    prose = dropEmptyFences(prose);
  } else if (cutAt !== undefined) {
    prose = readCutReply(prose, collector, cutAt);
  } else {
    prose = readFencedCalls(prose, collector) ?? readWholeReply(prose, collector) ?? prose;
  }
  return withWrittenOrder({ text: prose.trim(), calls: collector.calls, errors: collector.errors }, collector.writtenOrder);
}

/**
 * The start of a longer reply, without call tags: fenced calls closed before the cut are read; a
 * fence still open at the cut, or the whole of it as JSON (it is not whole), would be read as cut
 * short: where it would have held a call, it is said to be cut, and is neither run nor prose.
 */
function readCutReply(prose: string, collector: CallCollector, cutAt: string): string {
  const open = fencedBlocks(prose).find(({ close }) => close === undefined);
  const closedPart = open === undefined ? prose : prose.slice(0, open.open.at);
  const read = readFencedCalls(closedPart, collector);
  const kept = read ?? closedPart;
  const trial = collector.fork();
  if (open !== undefined) {
    const rest = prose.slice(open.open.at);
    if (readFencedCalls(rest, trial) === null || trial.writtenOrder.length === 0) return kept + rest;
    collector.noteCutAtReadLimit(cutAt);
    return kept;
  }
  if (read !== null) return kept;
  const whole = readWholeReply(prose, trial);
  if (whole === null) return prose;
  // A message the reply wrote as JSON is its words; a call, cut, is nothing shown.
  if (trial.writtenOrder.length === 0) return whole;
  collector.noteCutAtReadLimit(cutAt);
  return '';
}

/**
 * Removes the fenced blocks left empty (see isEmptyFenceBody). Fences pair as everywhere else (see
 * fencedBlocks), so the close of one block and the open of the next never count as an empty block
 * between them.
 */
function dropEmptyFences(text: string): string {
  const kept: string[] = [];
  let from = 0;
  for (const { open, close } of fencedBlocks(text)) {
    if (close === undefined || !isEmptyFenceBody(text.slice(open.end, close.at))) continue;
    kept.push(text.slice(from, open.at));
    from = close.end;
  }
  kept.push(text.slice(from));
  return kept.join('');
}
