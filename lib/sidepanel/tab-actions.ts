// The actions about the tab itself (which one the panel follows, its site, its page), apart from
// those about the conversation in it.
import type { PanelState } from './panel-state';
import type { PostForTab } from './post-for-tab';
import type { TabSubscription } from './tab-subscription';

/** The panel's actions on the tab it follows: turning to another, the agent off there, a reload. */
export function createTabActions(panel: PanelState, subscription: TabSubscription, postForTab: PostForTab) {
  const { tabId, session, tabClosed, draft, drafts, lastError, unconfirmed, approvals, undo } = panel;

  return {
    /** Follow a tab; subscribing again to the same tab asks for a fresh snapshot. */
    selectTab(nextTabId: number) {
      if (nextTabId !== tabId.value) {
        const leftTabId = tabId.value;
        if (leftTabId !== undefined) draft.value = drafts.turn(leftTabId, nextTabId, draft.value);
        tabId.value = nextTabId;
        tabClosed.value = false;
        subscription.turnedToTab();
        session.value = undefined;
        if (leftTabId !== undefined) unconfirmed.leave(leftTabId);
        approvals.clear();
        // A request refused there since the panel left is back in the box: the refusal says why.
        lastError.value = drafts.takeRefusal(nextTabId);
        undo.reset();
      }
      subscription.renew();
    },
    /**
     * Chrome gave a tab a new id (a discarded tab, a prerendered page): the same page and chat, which
     * the background moves to it. The tab followed stays in view with what was typed, subscribed
     * under the new id; a tab the panel left has what it kept there on the way back.
     */
    tabReplaced(removedTabId: number, addedTabId: number) {
      drafts.tabReplaced(removedTabId, addedTabId);
      unconfirmed.tabReplaced(removedTabId, addedTabId);
      if (removedTabId !== tabId.value) return;
      tabId.value = addedTabId;
      subscription.renew();
    },
    /**
     * The tab closed (a panel fixed to it says so; one that follows the active tab turns to the
     * next): its conversation stays in view as it ended, and nothing more can be sent to it.
     */
    tabWasClosed(closedTabId: number) {
      if (closedTabId === tabId.value) tabClosed.value = true;
    },
    /**
     * Turns the agent off on the site the panel shows, or back on: the background changes the
     * settings (see `disabledSitesWith`), stops a run there, and the panel follows their change.
     */
    setAgentOff(off: boolean) {
      const origin = session.value?.origin;
      return origin !== undefined && origin !== '' && postForTab((id) => ({ type: 'set-agent-off', tabId: id, origin, off }));
    },
    /** Takes back "Allow on this site" for the site the panel shows: its tools that change the page ask again. */
    stopAllowingSite() {
      const origin = session.value?.origin;
      return origin !== undefined && origin !== '' && postForTab((id) => ({ type: 'stop-allowing-site', tabId: id, origin }));
    },
    /** Reloads the tab's page, for a page the extension cannot reach yet. */
    reloadPage() {
      postForTab((id) => ({ type: 'reload-page', tabId: id }));
    },
  };
}
