/** The tags a reply's markup is made of. Every one starts with `<`, and none is a prefix of another. */
export const MARKERS = {
  thinkOpen: '<think>',
  thinkClose: '</think>',
  hermesOpen: '<tool_call>',
  hermesClose: '</tool_call>',
  lfm2Open: '<|tool_call_start|>',
  lfm2Close: '<|tool_call_end|>',
} as const;

export type MarkerName = keyof typeof MARKERS;

const MARKER_TEXTS: readonly string[] = Object.values(MARKERS);

/** Longest marker length: a held-back tail is always shorter than this. */
const LONGEST_MARKER = Math.max(...MARKER_TEXTS.map((marker) => marker.length));

/** What sits at a `<`: a whole marker, the start of one cut off by the end of the text, or neither. */
export type MarkerMatch = MarkerName | 'partial' | null;

/**
 * Whether the text from `index` to its end is the start of a marker, but not the whole of one:
 * a tail a stream must hold back. Compared in place, as a stream asks this at most of its `<`.
 */
function isMarkerPrefixAt(text: string, index: number): boolean {
  const length = text.length - index;
  for (const marker of MARKER_TEXTS) {
    if (length >= marker.length) continue;
    let matched = 0;
    while (matched < length && text.charCodeAt(index + matched) === marker.charCodeAt(matched)) matched += 1;
    if (matched === length) return true;
  }
  return false;
}

/** Which marker starts at `index`, where `text[index]` is `<`. */
export function matchMarkerAt(text: string, index: number): MarkerMatch {
  const whole = matchWholeMarker(text, index);
  if (whole !== null) return whole;
  return text.length - index < LONGEST_MARKER && isMarkerPrefixAt(text, index) ? 'partial' : null;
}

/**
 * Two characters pick the one marker that can start here (`<t` then `o`/`h`, `</` then `o`/`h`,
 * `<|tool_call_` then `s`/`e`), and one comparison confirms it: hostile text full of near
 * misses costs a few character reads per `<`.
 */
function matchWholeMarker(text: string, index: number): MarkerName | null {
  const second = text.charCodeAt(index + 1);
  let candidate: MarkerName;
  if (second === 0x74 /* t */) {
    const third = text.charCodeAt(index + 2);
    if (third === 0x6f /* o */) candidate = 'hermesOpen';
    else if (third === 0x68 /* h */) candidate = 'thinkOpen';
    else return null;
  } else if (second === 0x2f /* / */) {
    const fourth = text.charCodeAt(index + 3);
    if (fourth === 0x6f /* o */) candidate = 'hermesClose';
    else if (fourth === 0x68 /* h */) candidate = 'thinkClose';
    else return null;
  } else if (second === 0x7c /* | */) {
    const thirteenth = text.charCodeAt(index + 12);
    if (thirteenth === 0x73 /* s */) candidate = 'lfm2Open';
    else if (thirteenth === 0x65 /* e */) candidate = 'lfm2Close';
    else return null;
  } else {
    return null;
  }
  return text.startsWith(MARKERS[candidate], index) ? candidate : null;
}

/** The three kinds of region markup opens. */
export type RegionKind = 'think' | 'hermes' | 'lfm2';

/**
 * What a marker does in a region: open another region, close this one, or nothing (it is
 * content). An opening call tag inside a call region starts the next call (an unclosed tag runs to
 * the next call); nothing but `</think>` ends reasoning.
 */
export function markerEffect(region: RegionKind | 'prose', marker: MarkerName): MarkerEffect {
  if (region === 'think') return marker === 'thinkClose' ? 'close' : 'content';
  if (marker === 'hermesOpen') return OPENS.hermes;
  if (marker === 'lfm2Open') return OPENS.lfm2;
  if (region === 'hermes') return marker === 'hermesClose' ? 'close' : 'content';
  if (region === 'lfm2') return marker === 'lfm2Close' ? 'close' : 'content';
  if (marker === 'thinkOpen') return OPENS.think;
  return 'stray-close';
}

export type MarkerEffect = { readonly open: RegionKind } | 'close' | 'stray-close' | 'content';

const OPENS = {
  think: { open: 'think' },
  hermes: { open: 'hermes' },
  lfm2: { open: 'lfm2' },
} as const satisfies Record<RegionKind, MarkerEffect>;
