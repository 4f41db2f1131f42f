import type { ReplayClientPort } from '@/lib/traces/trace-client';
import { createTraceService, type TraceServiceBackground } from '@/lib/traces/trace-service';
import type { TraceStore } from '@/lib/traces/trace-store';
import type { ShopPage } from './shop-page';

/**
 * The real trace service over a test store, with the shop page open in tab 7; the two ends of a
 * replay port are joined in memory, as Chrome joins them between the viewer and the background.
 */
export function createTestService(store: TraceStore, pages: Map<number, ShopPage> = new Map(), more: Partial<TraceServiceBackground> = {}) {
  const service = createTraceService({
    isPrivateTab: async () => false,
    listTabIds: async () => [...pages.keys(), 99],
    ...more,
    store: async () => store,
    getTabTools: async (tabId) => {
      const page = pages.get(tabId);
      return page && { url: page.url, origin: page.origin, ...(page.title ? { title: page.title } : {}), tools: page.tools() };
    },
    executeTabTool: async (tabId, name, args) => pages.get(tabId)!.executeTool(name, args),
  });
  const openReplayPort = (): ReplayClientPort => {
    const toViewer: Array<(message: unknown) => void> = [];
    const toBackground: Array<(message: unknown) => void> = [];
    const disconnects: Array<() => void> = [];
    let open = true;
    // Messages cross as copies, a task later, like Chrome's structured clone over a port.
    const deliver = (listeners: Array<(message: unknown) => void>, message: unknown) =>
      setTimeout(() => open && listeners.forEach((listener) => listener(structuredClone(message))));
    service.connectReplay({
      post: (message) => deliver(toViewer, message),
      onMessage: (listener) => toBackground.push(listener),
      onDisconnect: (listener) => disconnects.push(listener),
    });
    return {
      post: (message) => deliver(toBackground, message),
      onMessage: (listener) => toViewer.push(listener),
      onDisconnect: () => {},
      close: () => {
        open = false;
        disconnects.forEach((listener) => listener());
      },
    };
  };
  return { service, openReplayPort };
}
