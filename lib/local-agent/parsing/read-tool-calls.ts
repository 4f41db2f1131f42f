import type { ParseResult } from '../types';
import { CallCollector } from './call-collector';
import { readFencedCalls } from './read-fenced-calls';
import { readRegionCalls } from './read-region-calls';
import { readWholeReply } from './read-whole-reply';
import { scanMarkup } from './scan-markup';

/**
 * The shapes, in the documented order: call tags (LFM2's and Qwen/Hermes', read together in the
 * order written), then fenced JSON, then the whole reply as JSON. A later shape is tried only
 * when no earlier one was found.
 */
/** A ``` fence (with or without a language) whose body is only white space. */
const emptyFence = /```[\w+.-]*\s*```/g;

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
    prose = prose.replace(emptyFence, '');
  } else {
    prose = readFencedCalls(prose, collector) ?? readWholeReply(prose, collector) ?? prose;
  }
  return { text: prose.trim(), calls: collector.calls, errors: collector.errors };
}
