// A run going on in a tab, as its session keeps it, and what the run's calls need of that session.
import type { ChatMessage } from '@webmcp-agents/chat';
import type { AgentWorld } from './agent-world';
import type { Turn, TurnOutcome } from './session-state';

/** The person's answer to a call that waits for their yes. */
export type Decision = 'allow-once' | 'allow-site' | 'deny';

/**
 * How a question ends without the person's answer: the page took the tool away, or changed it, so
 * the call does not run (`withdrawn`, and why), or the call may now run unasked (`allowed`: its
 * site allowed meanwhile, in another tab say).
 */
export type Settled = { withdrawn: string } | 'allowed';

/** A call that waits for the person's yes or no. */
export interface Question {
  answer(decision: Decision): void;
  /** Looks again whether the question still stands: the page's tools, or the settings, changed. */
  lookAgain(): void;
}

/** A run going on in a tab, as its session keeps it. */
export interface ActiveRun {
  controller: AbortController;
  /** The conversation it belongs to: "New chat" starts another. */
  generation: number;
  /**
   * The last tool it called, and when that call ended (while running, `endedAt` is undefined);
   * `topFrame`, for a tool of the tab's top frame, whose call may load the tab's next page: `form`
   * for a `<form toolname>` (whose next page may give its result), `script` for one a script
   * registered (whose next page says nothing of the call, but where it went).
   */
  lastTool?: { name: string; callId: string; topFrame?: 'form' | 'script'; endedAt?: number };
  /** The history's message that closed this run's request, where it ended unfinished. */
  note?: ChatMessage;
  /** The engine itself failed (see isEngineFailure): the turn offers the options, and the tab's status line says so. */
  engineFailed?: boolean;
  /** The model could not load for it, so nothing ran. */
  loadFailed?: boolean;
  /** The request alone did not fit in the model's context: the turn offers to edit it. */
  requestTooLong?: boolean;
  /** The model's last reply held nothing to show: the turn offers to ask again. */
  noAnswer?: boolean;
  /** The model's last reply reached a length limit that can be raised and was cut off: the turn offers to ask again. */
  cutOff?: boolean;
  /** It stopped, or never began, as the agent is off on its site: once it is on again, the turn offers to ask again. */
  agentOff?: boolean;
  /** The turn it runs for, and when that turn has ended (its outcome set, its exchange remembered). */
  turnId: string;
  ended: Promise<void>;
  stopReason?: TurnOutcome;
  stopDetail?: string;
  /** The calls that wait for the person's answer, by call id. */
  approvals: Map<string, Question>;
  /** It has read text that strangers wrote (see `approvalReason`), or its history holds an answer that did. */
  readUntrusted: boolean;
  /** What it read of strangers first, in words for the person ("what “read_reviews” answered, …"), where this run read it. */
  untrustedRead?: string;
  /** Its exchange goes into the history when it ends: it runs on a known site. */
  remembered?: boolean;
  /** The tab is in a private window: the run leaves no trace, and allows no site for good. */
  privateWindow?: boolean;
  /** Why it leaves no trace, where it leaves none. */
  notRecorded?: Turn['notRecorded'];
  /** The tab's page as the run began: how another tab's panel waiting for this run names it. */
  page?: { title?: string; origin: string };
}

/** A run as the panel of another tab waiting for it sees it (see `waitingWords`). */
export interface RunSeenFromElsewhere {
  title?: string;
  origin: string;
  privateWindow: boolean;
  /** A call waits for the person's yes or no. */
  askingYou: boolean;
}

/** What a run's calls, and its questions to the person, need of the tab's session. */
export interface TabRunHost {
  readonly tabId: number;
  readonly world: AgentWorld;
  /** A tool ran since the tools last settled (see `settleTools`): the page may be changing its tools right now. */
  toolRan: boolean;
  /** Whether `active` is still the run going on in the tab. */
  isActive(active: ActiveRun): boolean;
  stop(reason: TurnOutcome, detail?: string): void;
  /** The agent is off on `origin` (the tab's site, or a framed tool's): the run stops, saying why, and its turn may be sent again once it is on. */
  agentTurnedOff(origin: string): void;
  /** The tab's page is no longer the one the run began on. */
  documentChanged(): void;
}
