// Every action that asks the background asks about the tab the panel follows, and only while it
// follows one: kept in one place so the actions' parts share it.
import type { ReadonlySignal } from '@preact/signals';
import type { PanelMessage } from '../agent/agent-port-protocol';
import type { PortConnection } from './port-connection';

/** Posts the message `build` makes for the tab followed; answers whether it went out. */
export type PostForTab = (build: (tabId: number) => PanelMessage) => boolean;

/** Nothing goes out for a tab that is closed (`tabClosed`): the background would only make it a new session. */
export function createPostForTab(tabId: ReadonlySignal<number | undefined>, tabClosed: ReadonlySignal<boolean>, port: Pick<PortConnection, 'post'>): PostForTab {
  return function postForTab(build) {
    return tabId.value !== undefined && !tabClosed.value && port.post(build(tabId.value));
  };
}
