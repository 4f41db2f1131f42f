import { recorderKeepsTraces } from '../traces/trace-recorder';
import { siteOfReport } from '../registry/report-site';
import { agentOffBy } from '../settings';
import { siteOfAddress } from '../text/origin-of';
import type { SessionMessage } from './agent-port-protocol';
import type { AgentSessionsBackground } from './agent-sessions-background';
import { closedPageKind } from '../registry/closed-page-kind';
import type { EngineHost } from './engine-host';
import type { ModelPreviews } from './model-previews';
import type { ChatEnding, EngineStatus, SessionState } from './session-state';
import { suggestRequests } from './suggestions';
import type { TabSession } from './tab-session';

/** What a tab's snapshot is built from: the background's reads, the tab's session, and what its panels are told. */
export interface TabSnapshotsHost {
  background: AgentSessionsBackground;
  /** The panels following each tab: a tab none follows gets no snapshot. */
  panels: ReadonlyMap<number, ReadonlySet<unknown>>;
  sessionFor(tabId: number): Promise<TabSession>;
  engines: Pick<EngineHost, 'describe'>;
  previews: ModelPreviews;
  engineStatusFor(tabId: number): EngineStatus;
  /** How the tab's chat ended, where an update of the extension ended it. */
  endedChat(tabId: number): ChatEnding | undefined;
  /** The other tabs whose run waits for the person's answer, as `tabId`'s panel may name them. */
  askingElsewhere(tabId: number): SessionState['askingElsewhere'];
  publish(tabId: number, message: SessionMessage): void;
}

/**
 * A snapshot waits on reads (settings, tools, asking the page). One is built at a time per tab,
 * and a request that comes meanwhile builds one more afterwards: an older picture never lands
 * after a newer one, and a stream of changes cannot starve the panel of pictures. Each is built
 * after its last read and sent at once, so no turn published in between is overwritten.
 */
export function createTabSnapshots(host: TabSnapshotsHost) {
  const snapshots = new Map<number, { again: boolean; done: Promise<void> }>();
  const send = (tabId: number): Promise<void> => {
    const building = snapshots.get(tabId);
    if (building) {
      building.again = true;
      return building.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await buildAndSendSnapshot(host, tabId);
        } while (state.again);
      } finally {
        snapshots.delete(tabId);
      }
    })();
    snapshots.set(tabId, state);
    return state.done;
  };
  return {
    /** Sends the tab's panels a snapshot; resolves once it is sent (or none follows the tab). */
    send,
    /** Sends one where nobody waits for it: a snapshot that fails leaves the panel as it was. */
    resend: (tabId: number) => void send(tabId).catch(() => {}),
  };
}

async function buildAndSendSnapshot(host: TabSnapshotsHost, tabId: number): Promise<void> {
  const { background } = host;
  // A panel resting may follow the tab, held port or not: it connects for a snapshot of its own.
  background.wakePanels?.(tabId);
  if (!host.panels.get(tabId)?.size) return;
  const session = await host.sessionFor(tabId);
  const [settings, tools, privateWindow] = await Promise.all([background.loadSettings(), background.getTabTools(tabId), background.isPrivateTab(tabId)]);
  const silent = tools ? { pageReachable: true } : await readSilentPage(background, tabId);
  const { closedPage, pageReachable, pageLoadFailed, pageAsleep } = silent;
  // The browser tells no address of a tab asleep: its chat's site names it, where it has one.
  const address = silent.address ?? (pageAsleep ? session.site : undefined);
  // A page with no tools yet may register them as it loads: said so, not that it offers none.
  const pageLoading = pageReachable && !tools?.tools.length && (await background.tabLoading?.(tabId).catch(() => false)) === true;
  host.engines.describe(settings, await host.previews.previewFor(settings));
  // A web page that reported no tools is still a site: the person may turn the agent off there
  // before it offers any. A browser page has no site to name, nor a file (its report's is 'null').
  const origin = (tools ? siteOfReport(tools) : siteOfAddress(address)) ?? '';
  const offBy = origin ? agentOffBy(settings.disabledSites, origin) : [];
  const ending = host.endedChat(tabId);
  // A private window's runs leave no trace.
  const turnsLeftOut = session.turnsLeftOut > 0 && session.turns.length > 0 ? { count: session.turnsLeftOut, tracesKept: !privateWindow && (await recorderKeepsTraces(background.recorder)) } : undefined;
  // Without tools, the page still has the chat of its site to ask about: "did it go through?"
  const askAboutChat = pageReachable && !tools?.tools.length && origin !== '' && session.turns.length > 0 && session.site === origin;
  const state: SessionState = {
    tabId,
    // A page without tools, reachable or not, is named by its address: the panel says which tab it is about.
    url: tools?.url ?? address ?? '',
    origin,
    turns: session.turns,
    ...(turnsLeftOut ? { turnsLeftOut } : {}),
    // As the panel works it out from each turn message: one rule, so the two never disagree.
    running: session.turns.some((turn) => !turn.outcome),
    ...(session.canUndoClear ? { canUndoNewChat: true } : {}),
    toolCount: tools?.tools.length ?? 0,
    ...(tools?.dropped?.length ? { toolsRefused: true } : {}),
    pageReachable,
    ...(closedPage && !pageReachable ? { closedPage } : {}),
    ...(pageLoadFailed ? { pageLoadFailed } : {}),
    ...(pageAsleep ? { pageAsleep } : {}),
    ...(pageLoading ? { pageLoading } : {}),
    ...(askAboutChat ? { askAboutChat } : {}),
    suggestions: suggestRequests(tools?.tools ?? []),
    engine: host.engineStatusFor(tabId),
    siteAllowed: Boolean(origin && settings.allowedSites.includes(origin)),
    agentOff: offBy.length > 0,
    agentOffBy: offBy,
    ...(privateWindow ? { privateWindow: true } : {}),
    ...(ending && session.turns.length === 0 ? { chatEnded: ending } : {}),
  };
  const askingElsewhere = host.askingElsewhere(tabId);
  if (askingElsewhere) state.askingElsewhere = askingElsewhere;
  // Prose still waiting to go out is in the snapshot already: it goes first, and the snapshot replaces it.
  host.publish(tabId, { type: 'snapshot', state });
}

/**
 * What can be told of a page that reported no tools: its address where the browser gives it, and
 * whether the content script answers there. It is asked unless the address says no extension may
 * run there (a browser page), which no asking changes; one that does not answer may be a page that
 * did not load rather than one open from before the extension came. A tab Chrome unloaded to save
 * memory has no page to ask, nor an address the browser tells.
 */
async function readSilentPage(
  background: AgentSessionsBackground,
  tabId: number,
): Promise<{ address?: string; closedPage?: 'browser' | 'file'; pageReachable: boolean; pageLoadFailed?: boolean; pageAsleep?: boolean }> {
  if (await background.tabAsleep?.(tabId).catch(() => false)) return { pageReachable: false, pageAsleep: true };
  const frame = await background.topFrame?.(tabId).catch(() => undefined);
  const address = frame?.url;
  const closedPage = address === undefined ? undefined : closedPageKind(address);
  const pageReachable = closedPage !== 'browser' && (await background.pageAnswers(tabId));
  const pageLoadFailed = !pageReachable && closedPage === undefined && frame?.errorOccurred === true;
  return { address, closedPage, pageReachable, pageLoadFailed };
}
