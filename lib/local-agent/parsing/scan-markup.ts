import { MARKERS, markerEffect, matchMarkerAt, type MarkerName, type RegionKind } from './markup-markers';
import { createFinder } from './text-range';

/** A call region of a reply: its kind and where its content lies. */
export interface CallRegion {
  kind: 'hermes' | 'lfm2';
  start: number;
  end: number;
}

/** A reply split into prose (reasoning and markup removed) and call regions, in order. */
export interface ScannedMarkup {
  prose: string;
  regions: CallRegion[];
}

/**
 * Splits a reply in one left-to-right pass. Reasoning is dropped; a reply whose first reasoning
 * tag is `</think>` started inside reasoning (the template opened it), so everything before that
 * tag goes. A later stray `</think>` is prose; stray closing call tags are dropped.
 */
export function scanMarkup(text: string): ScannedMarkup {
  const skipRegion = createRegionSkipper(text);
  let prose: string[] = [];
  let regions: CallRegion[] = [];
  let sawThinkTag = false;
  let cursor = 0;
  const found: FoundMarker = { at: -1, marker: 'thinkOpen' };
  let hasMarker = findProseMarker(text, 0, found);
  while (hasMarker) {
    const { at, marker } = found;
    if (at > cursor) prose.push(text.slice(cursor, at));
    if (marker === 'thinkClose' && !sawThinkTag) {
      prose = [];
      regions = [];
    } else if (marker === 'thinkClose') {
      prose.push(MARKERS.thinkClose);
    }
    if (marker === 'thinkOpen' || marker === 'thinkClose') sawThinkTag = true;
    cursor = at + MARKERS[marker].length;
    const effect = markerEffect('prose', marker);
    if (typeof effect === 'object') cursor = skipRegion(effect.open, cursor, regions, found);
    // A call region that ran to the next call has already found that call's tag.
    hasMarker = found.at === cursor || findProseMarker(text, cursor, found);
  }
  if (cursor < text.length) prose.push(text.slice(cursor));
  return { prose: prose.join(''), regions };
}

/**
 * Finds where a region that starts at `start` ends, adds it to `regions` if it is a call, and
 * returns where prose resumes. Reasoning ends only at `</think>`; a call region at its closing
 * tag or where the next call starts: that tag is not consumed, and goes into `found`. Each tag
 * has one remembered search, so a reply full of regions is still read in linear time.
 */
function createRegionSkipper(text: string) {
  const find = {
    thinkClose: createFinder(text, MARKERS.thinkClose),
    hermesOpen: createFinder(text, MARKERS.hermesOpen),
    hermesClose: createFinder(text, MARKERS.hermesClose),
    lfm2Open: createFinder(text, MARKERS.lfm2Open),
    lfm2Close: createFinder(text, MARKERS.lfm2Close),
  };
  return (kind: RegionKind, start: number, regions: CallRegion[], found: FoundMarker): number => {
    if (kind === 'think') {
      const close = find.thinkClose(start);
      return close === -1 ? text.length : close + MARKERS.thinkClose.length;
    }
    const closeMarker = kind === 'hermes' ? MARKERS.hermesClose : MARKERS.lfm2Close;
    const close = kind === 'hermes' ? find.hermesClose(start) : find.lfm2Close(start);
    const nextHermes = find.hermesOpen(start);
    const nextCall = earliest(nextHermes, find.lfm2Open(start));
    const end = earliest(close, nextCall);
    regions.push({ kind, start, end: end === -1 ? text.length : end });
    if (end === -1) return text.length;
    if (end === close) return close + closeMarker.length;
    found.at = end;
    found.marker = end === nextHermes ? 'hermesOpen' : 'lfm2Open';
    return end;
  };
}

/** Where a marker may start: every marker's second character is `t`, `/` or `|`. */
const MARKER_START = /<[t/|]/g;

/** Where the last marker search stopped: one object, reused, as a reply may hold thousands. */
interface FoundMarker {
  at: number;
  marker: MarkerName;
}

/**
 * Finds the first whole marker at or after `from` (false when there is none). The native
 * `indexOf` finds a lone `<` in ordinary prose fastest; past a `<` that starts no marker, a
 * regular expression keeps text full of `<` quick (`test` moves `lastIndex` without allocating).
 */
function findProseMarker(text: string, from: number, found: FoundMarker): boolean {
  const first = text.indexOf('<', from);
  if (first === -1) return false;
  if (isMarkerAt(text, first, found)) return true;
  MARKER_START.lastIndex = first + 1;
  while (MARKER_START.test(text)) {
    if (isMarkerAt(text, MARKER_START.lastIndex - 2, found)) return true;
  }
  return false;
}

function isMarkerAt(text: string, at: number, found: FoundMarker): boolean {
  const marker = matchMarkerAt(text, at);
  if (marker === null || marker === 'partial') return false;
  found.at = at;
  found.marker = marker;
  return true;
}

/** The smaller of two positions, where -1 means "none". */
function earliest(first: number, second: number): number {
  if (first === -1) return second;
  if (second === -1) return first;
  return Math.min(first, second);
}
