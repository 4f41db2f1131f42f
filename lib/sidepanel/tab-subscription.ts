import type { ReadonlySignal } from '@preact/signals';
import type { PortConnection } from './port-connection';

/**
 * The panel's subscription to the tab it follows, sent again on each connect. `port` is asked for
 * only once there is a tab: the connection opens, and calls `post`, before the panel follows one.
 */
export function createTabSubscription(
  tabId: ReadonlySignal<number | undefined>,
  tabClosed: ReadonlySignal<boolean>,
  port: () => Pick<PortConnection, 'post' | 'wake'>,
) {
  // The panel turned to a tab: its first subscription asks the page to look for tools anew (a
  // walk of its frames); a reconnect after the worker slept only asks for the picture.
  let lookAgain = false;
  function post(): void {
    // A closed tab's last snapshot stays: a new one would be of an empty chat.
    if (tabId.value === undefined || tabClosed.value) return;
    // Kept until a subscribe goes out: one the reconnect wait swallowed asks on the next connect.
    if (port().post({ type: 'subscribe', tabId: tabId.value, ...(lookAgain ? { lookAgain: true } : {}) })) lookAgain = false;
  }
  return {
    /** Subscribes on the open port; see `PortConnectionOptions.onOpen`. */
    post,
    turnedToTab() {
      lookAgain = true;
    },
    /** Subscribes again, which asks for a fresh snapshot. */
    renew() {
      // A resting connection subscribes as it opens.
      if (!port().wake()) post();
    },
  };
}

export type TabSubscription = ReturnType<typeof createTabSubscription>;
