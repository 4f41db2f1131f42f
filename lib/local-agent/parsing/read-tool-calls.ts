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
 * when no earlier one was found.
 */
export function readToolCalls(text: string, toolNames: ReadonlySet<string>): ParseResult {
  const collector = new CallCollector(toolNames);
  const markup = scanMarkup(text);
  let prose = markup.prose;
  if (markup.regions.length > 0) {
    for (const region of markup.regions) {
      if (collector.full) {
        collector.noteLeftOut();
        break;
      }
      readRegionCalls(text, region.start, region.end, collector);
    }
    // A call the model wrapped in a code fence leaves the fence empty: it is markup too.
    prose = dropEmptyFences(prose);
  } else {
    prose = readFencedCalls(prose, collector) ?? readWholeReply(prose, collector) ?? prose;
  }
  return withWrittenOrder({ text: prose.trim(), calls: collector.calls, errors: collector.errors }, collector.writtenOrder);
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
