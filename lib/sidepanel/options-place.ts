/**
 * The places of the options page that a notice in the panel may send the person to: each is a
 * control there marked `data-place`, and "Open the options" opens the page at the one its notice
 * names (`options.html#reply-tokens`).
 */
const optionsPlaces = [
  'engine',
  'model',
  'server-address',
  'server-key',
  'max-steps',
  'tool-output',
  'reply-tokens',
  'tool-timeout',
  'models-stored',
  'sites',
] as const;

export type OptionsPlace = (typeof optionsPlaces)[number];

/**
 * What the sentence that sends the person to the options asks them to change, in the words the
 * notices use. The first that matches wins: one sentence may offer two ways ('raise "Longest reply"
 * in the options, or pick a model there'), and the first is the nearer.
 */
const placesNamed: readonly (readonly [RegExp, OptionsPlace])[] = [
  [/"Longest reply"/, 'reply-tokens'],
  [/"Characters of a tool's output the model reads"/, 'tool-output'],
  [/"Seconds a tool may take/, 'tool-timeout'],
  [/"Maximum steps per request"/, 'max-steps'],
  [/\bModels on this computer\b|\bdelete\b[^,;]*\bmodel/i, 'models-stored'],
  [/\baddress\b/, 'server-address'],
  [/\bkey\b/, 'server-key'],
  [/\banother engine\b/, 'engine'],
  [/\bpick\b[^,;]*\b(?:model|build)/i, 'model'],
  [/\bturn it back on\b/i, 'sites'],
];

/** Where in the options a notice sends the person, read from its sentence that names them. */
export function optionsPlaceFor(notice: string): OptionsPlace | undefined {
  const sentences = notice.split(/(?<=[.:;!?])\s+/).filter((sentence) => /\boptions\b/.test(sentence));
  for (const sentence of sentences) {
    const named = placesNamed.find(([words]) => words.test(sentence));
    if (named) return named[1];
  }
  return undefined;
}

/** The place a page address names after its `#`, where it is one. */
export function optionsPlaceIn(hash: string): OptionsPlace | undefined {
  const named = hash.replace(/^#/, '');
  return (optionsPlaces as readonly string[]).includes(named) ? (named as OptionsPlace) : undefined;
}
