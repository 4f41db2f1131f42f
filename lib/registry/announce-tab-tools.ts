import type { TabTools } from './types';

export type TabToolsListener = (tabId: number, tools: TabTools | undefined) => void;

/** Tells every listener a tab's tools changed; one that throws is logged, and the others still hear. */
export function announceTabTools(listeners: ReadonlySet<TabToolsListener>, tabId: number, tools: TabTools | undefined): void {
  for (const listener of listeners) {
    try {
      listener(tabId, tools);
    } catch (error) {
      console.error('A tab-tools listener failed:', error);
    }
  }
}
