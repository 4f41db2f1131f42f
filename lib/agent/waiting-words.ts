import { siteLabel } from '../text/site-label';

/**
 * What a tab's request waits for on an engine that several tabs share: `reply`, another tab's reply
 * (an engine that answers one at a time); `run`, another tab's whole run, before a new model may
 * replace the one it uses.
 */
export type WaitKind = 'reply' | 'run';

/** The tab waited for, as the waiting tab's panel names it. */
export interface WaitedTab {
  /** How the person knows it (see `tabName`); absent where it must not be named. */
  name?: string;
  /** Its run waits for the person's yes or no to a call: it goes on only once they answer there. */
  askingYou?: boolean;
}

/**
 * The words of the waiting tab's status line. The person may have many tabs open: the one waited
 * for is named, and where its run waits for their answer, that is what they are told to give, since
 * nothing else ends the wait.
 */
export function waitingWords(kind: WaitKind, other: WaitedTab = {}): string {
  const where = other.name === undefined ? 'another tab' : `“${other.name}”`;
  if (other.askingYou) return kind === 'reply' ? `Waiting for your answer in ${where}…` : `Waiting for your answer in ${where}, whose run must end first…`;
  return kind === 'reply' ? `Waiting for the reply in ${where}…` : `Waiting for the run in ${where} to end…`;
}

/** The longest tab name shown, in characters: a status line in a narrow panel. */
export const tabNameLength = 40;

/**
 * A tab as the person knows it: its title, or its site where it has none. A title is the page's
 * own words, so it is shown only as text, cut to `tabNameLength`, without the invisible characters
 * (controls, direction overrides) that could make it read as something else.
 */
export function tabName(title: string | undefined, origin: string): string | undefined {
  const plain = Array.from((title ?? '').replace(/\s+/g, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim());
  if (plain.length === 0) return origin ? siteLabel(origin) : undefined;
  return plain.length <= tabNameLength ? plain.join('') : `${plain.slice(0, tabNameLength - 1).join('').trimEnd()}…`;
}
