// Every action that asks the background asks about the tab the panel follows, and only while it
// follows one: kept in one place so the actions' parts share it.
import type { ReadonlySignal } from '@preact/signals';
import type { PanelMessage } from '../agent/agent-port-protocol';
import type { PortConnection } from './port-connection';

/** Posts the message `build` makes for the tab followed; answers whether it went out. */
export type PostForTab = (build: (tabId: number) => PanelMessage) => boolean;

export function createPostForTab(tabId: ReadonlySignal<number | undefined>, port: Pick<PortConnection, 'post'>): PostForTab {
  return function postForTab(build) {
    return tabId.value !== undefined && port.post(build(tabId.value));
  };
}
