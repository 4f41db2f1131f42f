import { plural } from '../text/plural';
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
  /** How many other tabs' runs the wait is for too (a new model waits for every run to end); default none. */
  others?: number;
}

/**
 * The words of the waiting tab's status line. The person may have many tabs open: the one waited
 * for is named, and where its run waits for their answer, that is what they are told to give, since
 * nothing else ends the wait. Where runs in other tabs must end too, the line says how many, short
 * enough for a narrow panel.
 */
export function waitingWords(kind: WaitKind, other: WaitedTab = {}): string {
  const where = other.name === undefined ? 'another tab' : `“${other.name}”`;
  const others = kind === 'run' ? (other.others ?? 0) : 0;
  if (other.askingYou) {
    if (kind === 'reply') return `Waiting for your answer in ${where}…`;
    const runs = others === 0 ? 'run' : `run and ${plural(others, 'other')}`;
    return `Waiting for your answer in ${where}, whose ${runs} must end first…`;
  }
  if (kind === 'reply') return `Waiting for the reply in ${where}…`;
  if (others === 0) return `Waiting for the run in ${where} to end…`;
  const tabs = other.name === undefined ? plural(others + 1, 'other tab') : `${where} and ${plural(others, 'other tab')}`;
  return `Waiting for the runs in ${tabs} to end…`;
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
