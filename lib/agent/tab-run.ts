// One run in a tab as its calls are checked, shared by the run itself (see `runTabAgent`) and the
// questions its calls put to the person (see `askPerson`).
import type { Settings } from '../settings';
import type { ActiveRun, TabRunHost } from './active-run';
import type { ApprovalReason } from './approval-policy';

/** How a call that waits for the person's yes shows on its card. */
export type WaitingCard = { callId: string; state: 'waiting'; approvalReason: ApprovalReason; siteChoice?: false; origin?: string; description?: string; untrustedRead?: string };

/** What the run changes on a call's card itself: it waits for the person, or it was handed to the page (when, and whether its tool only reads). */
export type CardChange = WaitingCard | { callId: string; sent: true; sentAt: number; readOnly?: true };

/** What a call's card shows of its tool as the page words it: its title (on one line), and the page's language. */
export interface ToolFace {
  title?: string;
  lang?: string;
}

/** One run in the tab as its calls are checked: where it works, and what it may offer the person. */
export interface TabRun {
  host: TabRunHost;
  active: ActiveRun;
  settings: Settings;
  /** The tab's site as its tools were last read. */
  topOrigin?: string;
  /** The page's words for its tools as they were last read (their `title`s, on one line, and language), by name. */
  faces?: ReadonlyMap<string, ToolFace>;
  /** The names of the tools of another site's frame as the tools were last read (see otherSiteOf). */
  otherSiteTools?: ReadonlySet<string>;
  /** The site the run works on: the tab's when it began, or the first the page reports. */
  runOrigin: string;
  /** "Allow on this site" may be offered. */
  siteChoice: boolean;
  changeCard: (change: CardChange) => void;
}
