/** A piece of a model's raw reply, marked with what the parser made of it. */
export interface RawSegment {
  kind: 'prose' | 'call' | 'think';
  text: string;
}

/** Tag pairs around the parts of a reply that are not prose, as the parser reads them. */
const regions: Array<{ open: string; close: string; kind: RawSegment['kind'] }> = [
  { open: '<think>', close: '</think>', kind: 'think' },
  { open: '<tool_call>', close: '</tool_call>', kind: 'call' },
  { open: '<|tool_call_start|>', close: '<|tool_call_end|>', kind: 'call' },
];

/**
 * Splits a raw reply for the viewer to highlight: reasoning, call markup (tagged calls, or the
 * fenced or bare JSON the parser read when the reply had no tags), and prose. Display only.
 */
export function segmentRawOutput(raw: string, parsedCallCount: number): RawSegment[] {
  const segments: RawSegment[] = [];
  let cursor = 0;
  let sawCallTag = false;
  while (cursor < raw.length) {
    const next = nextRegion(raw, cursor);
    if (!next) break;
    if (next.start > cursor) segments.push({ kind: 'prose', text: raw.slice(cursor, next.start) });
    segments.push({ kind: next.kind, text: raw.slice(next.start, next.end) });
    sawCallTag ||= next.kind === 'call';
    cursor = next.end;
  }
  if (cursor < raw.length) segments.push({ kind: 'prose', text: raw.slice(cursor) });
  return sawCallTag || parsedCallCount === 0 ? segments : markUntaggedCalls(segments);
}

function nextRegion(raw: string, from: number) {
  let best: { start: number; end: number; kind: RawSegment['kind'] } | undefined;
  for (const region of regions) {
    const start = raw.indexOf(region.open, from);
    if (start === -1 || (best && start >= best.start)) continue;
    const close = raw.indexOf(region.close, start + region.open.length);
    best = { start, end: close === -1 ? raw.length : close + region.close.length, kind: region.kind };
  }
  return best;
}

/** Without tags the calls were a fenced JSON block or the whole reply: mark those as calls. */
function markUntaggedCalls(segments: RawSegment[]): RawSegment[] {
  return segments.flatMap((segment) => {
    if (segment.kind !== 'prose') return [segment];
    const fences = [...segment.text.matchAll(/```(?:json|tool_call)?\s*\n[\s\S]*?```/g)];
    if (fences.length === 0) return [{ kind: 'call' as const, text: segment.text }];
    const parts: RawSegment[] = [];
    let cursor = 0;
    for (const match of fences) {
      if (match.index > cursor) parts.push({ kind: 'prose', text: segment.text.slice(cursor, match.index) });
      parts.push({ kind: 'call', text: match[0] });
      cursor = match.index + match[0].length;
    }
    if (cursor < segment.text.length) parts.push({ kind: 'prose', text: segment.text.slice(cursor) });
    return parts;
  });
}
