import { siteOfReport } from '../registry/report-site';
import { agentOffOn, disabledSitesWith } from '../settings';
import type { AgentSessionsBackground } from './agent-sessions-background';
import type { TabSession } from './tab-session';

const privateWindowKeepsNothing = "A private window saves no site: to turn the agent off on this one, use the extension's options or a normal window.";

/** What turning the agent off needs: the settings and tabs, the sessions whose runs it may stop, and the tab's snapshot. */
export interface AgentOffHost {
  background: Pick<AgentSessionsBackground, 'isPrivateTab' | 'updateSettings' | 'loadSettings' | 'getTabTools'>;
  sessions: ReadonlyMap<number, TabSession>;
  sendSnapshot(tabId: number): Promise<void>;
}

/**
 * The agent turned off, or back on, on a site: a run on a site that is off now stops at once, not
 * at its next step. Whatever it was about to do there, the person just said no.
 */
export function createAgentOff({ background, sessions, sendSnapshot }: AgentOffHost) {
  // From a panel or the options page, while runs went on.
  const stopRunsWhereOff = async (): Promise<void> => {
    const running = [...sessions].filter(([, session]) => session.running);
    if (running.length === 0) return;
    const { disabledSites } = await background.loadSettings();
    for (const [tabId, session] of running) {
      const tools = await background.getTabTools(tabId).catch(() => undefined);
      const site = tools && siteOfReport(tools);
      if (site && agentOffOn(disabledSites, site)) session.agentTurnedOff(site);
    }
  };

  // The person turned the agent off, or back on, from the panel.
  const setAgentOff = async (tabId: number, origin: string, off: boolean): Promise<void> => {
    // A private window's site must not be listed for good: its panel offers no "Turn agent off",
    // and one that still does (drawn before the snapshot said so) is refused here. Turning the
    // agent back on stays: it takes away an entry the person made, and adds nothing of this visit.
    if (off && (await background.isPrivateTab(tabId))) throw new Error(privateWindowKeepsNothing);
    // Changed as the list is when written: another panel, or the options page, may change it too.
    await background.updateSettings(({ disabledSites }) => ({ disabledSites: [...disabledSitesWith(disabledSites, origin, off)] }));
    // The settings' watcher does both too; this panel need not wait for it.
    if (off) await stopRunsWhereOff();
    return sendSnapshot(tabId);
  };

  // The person took back "Allow on this site" from the panel: the site as they saw it, exactly as listed.
  const stopAllowingSite = async (tabId: number, origin: string): Promise<void> => {
    await background.updateSettings(({ allowedSites }) => (allowedSites.includes(origin) ? { allowedSites: allowedSites.filter((site) => site !== origin) } : {}));
    return sendSnapshot(tabId);
  };

  return { setAgentOff, stopAllowingSite, stopRunsWhereOff };
}
