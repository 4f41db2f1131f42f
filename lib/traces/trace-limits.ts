import { cutGraphemes } from '../text/cut-graphemes';

/**
 * The longest text a trace keeps in each kind of field. Page and model text is untrusted and can
 * be huge; the recorder cuts it to these, and an imported file must fit them too.
 */
export const traceLimits = {
  id: 200,
  name: 1_000,
  /** A request, a problem message, an error message, one tool's description. */
  message: 20_000,
  /** A tool result as the trace keeps it; the model itself reads less (the tool output limit). */
  result: 20_000,
  url: 8_192,
  /** A prompt message, a raw reply, the prose of a step. */
  long: 400_000,
} as const;

/**
 * `text` cut to `limit` characters, with a note of how much was cut so a reader never mistakes it.
 * `fullLength`: what the text had before an earlier cut (a huge tool result carried in part).
 */
export function capText(text: string, limit: number, fullLength = text.length): string {
  if (text.length <= limit) return text;
  const note = (cut: number) => ` … (cut: ${cut} more characters)`;
  // Room for the longest the note can be; it counts what was left out, its own length aside.
  const kept = cutGraphemes(text, Math.max(0, limit - note(fullLength).length));
  return kept + note(fullLength - kept.length);
}

/**
 * The most of each thing one run holds, for an imported file. A recorder writes far fewer (at most
 * 30 steps, 8 tools shown and 50 named as not shown a step, 64 calls a reply, a prompt of some 70
 * messages, arguments nested 100 deep, schemas 32): the margin is wide, but a hand-made file cannot
 * make the viewer freeze.
 */
export const traceCounts = {
  steps: 100,
  toolsPerStep: 100,
  /** The tools a step names as not shown; a recorder names at most 50 (notShownLimit). */
  notShownPerStep: 200,
  messagesPerStep: 200,
  /** Calls, problems, and the calls and errors the parser read, each. */
  callsPerStep: 200,
  /** How deeply a call's arguments or a tool's parameters may nest. */
  depth: 128,
} as const;

/** The latest time a trace can hold: the last a `Date` can show (8.64e15 ms, in the year 275760). */
export const latestTime = 8.64e15;
