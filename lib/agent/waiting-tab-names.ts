import { siteOfReport } from '../registry/report-site';
import type { TabToolList } from './agent-world';
import type { RunSeenFromElsewhere } from './active-run';
import type { EngineStatus } from './session-state';
import { tabName, waitingWords } from './waiting-words';

/** What naming a waited-for tab needs of the sessions: their runs, the tabs panels follow, the engine's status per tab. */
export interface WaitingTabNamesHost {
  sessions: ReadonlyMap<number, { readonly runSeenFromElsewhere: RunSeenFromElsewhere | undefined }>;
  panels: ReadonlyMap<number, unknown>;
  engines: { statusFor(tabId: number): EngineStatus };
  background: { getTabTools(tabId: number): Promise<TabToolList | undefined> };
  publishEngineStatus(): void;
}

/**
 * A tab waiting for another tab's reply or run is told which tab, and whether that run waits for
 * the person's answer there: they may have many tabs open, and only their answer ends the wait.
 */
export function createWaitingTabNames({ sessions, panels, engines, background, publishEngineStatus }: WaitingTabNamesHost) {
  // The title of each tab with a session, as its page's latest report of tools told it: a page that
  // moves on while its run goes on (a single-page app's next view, with tools of its own) is named
  // by a tab waiting for that run as it was last reported, not as it was when the run began. A
  // retitle alone is not reported: a flashing title would keep the worker awake. Each title keeps
  // the site it was reported from: a page of another site (the tab left while its run unwinds) does
  // not name a run of the first.
  const currentTitles = new Map<number, { title: string | undefined; origin: string }>();
  /**
   * How `tabId`'s panel names `otherTabId`, whose run is `run`: by its title as last reported on the
   * run's site (else as the run began), unless that is this tab's own too (the same page open in two
   * tabs), which would read as this tab: then "another tab" says more.
   */
  const nameFor = (tabId: number, otherTabId: number, run: RunSeenFromElsewhere): string | undefined => {
    const current = currentTitles.get(otherTabId);
    const name = tabName(current?.origin === run.origin ? current.title : run.title, run.origin);
    const own = currentTitles.get(tabId);
    return name !== undefined && own !== undefined && tabName(own.title, own.origin) === name ? undefined : name;
  };
  return {
    /** Reads the tab's latest report of tools; the panels of tabs waiting for its run hear of a new title. */
    async noteTitle(tabId: number): Promise<void> {
      if (!sessions.has(tabId)) return;
      const report = await background.getTabTools(tabId).catch(() => undefined);
      if (!report || !sessions.has(tabId)) return;
      const known = currentTitles.get(tabId);
      // Named by its site, as the run is (see siteOfReport).
      const origin = siteOfReport(report);
      if (known !== undefined && known.title === report.title && known.origin === origin) return;
      currentTitles.set(tabId, { title: report.title, origin });
      if ([...panels.keys()].some((waiting) => engines.statusFor(waiting).waitingForTab === tabId)) publishEngineStatus();
    },
    /** The engine's status as `tabId`'s panel shows it, naming the tab it waits for where it may. */
    engineStatusFor(tabId: number): EngineStatus {
      const status = engines.statusFor(tabId);
      if (status.waitingForTab === undefined) return status;
      const waiting = sessions.get(tabId)?.runSeenFromElsewhere;
      const other = sessions.get(status.waitingForTab)?.runSeenFromElsewhere;
      // A private window's tab is neither named nor offered in a normal window's panel (see `isPrivateTab`).
      if (!other || (other.privateWindow && !waiting?.privateWindow)) return { ...status, waitingForTab: undefined, waitingForMore: undefined };
      const name = nameFor(tabId, status.waitingForTab, other);
      const kind = status.state === 'loading' ? 'run' : 'reply';
      return { ...status, progressText: waitingWords(kind, { ...(name ? { name } : {}), askingYou: other.askingYou, others: status.waitingForMore }) };
    },
    /**
     * The other tabs whose run waits for the person's answer, named as for a wait: the panel of a
     * tab they are not looking at says so, since nothing but their answer there lets that run go on.
     * A private window's tab is told of in no other tab's panel: a tab whose window cannot be read
     * counts as private, so its panel could not be trusted to be one.
     */
    askingElsewhere(tabId: number): { tabId: number; name?: string; more?: number } | undefined {
      const asking = [...sessions].flatMap(([otherTabId, session]) => {
        const run = session.runSeenFromElsewhere;
        return otherTabId !== tabId && run?.askingYou && !run.privateWindow ? [{ tabId: otherTabId, run }] : [];
      });
      const [first] = asking;
      if (!first) return undefined;
      const name = nameFor(tabId, first.tabId, first.run);
      return { tabId: first.tabId, ...(name ? { name } : {}), ...(asking.length > 1 ? { more: asking.length - 1 } : {}) };
    },
    /** The tab closed or was replaced: its title is forgotten. */
    forget(tabId: number): void {
      currentTitles.delete(tabId);
    },
  };
}
