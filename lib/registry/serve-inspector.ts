import type { Channel } from '../messaging/port-channel';
import type { InspectorEvent, InspectorRequest } from '../messaging/protocol';
import { requestTabTools } from './request-tab-tools';
import { executeTabTool } from './execute-tab-tool';
import type { TabToolRegistry } from './tab-tool-registry';

/**
 * One devtools inspector: it watches one tab (the tools now, then every change) and runs tools
 * there by hand. Closing the inspector stops its runs.
 */
export function serveInspector(registry: TabToolRegistry, channel: Channel<InspectorEvent, InspectorRequest>): void {
  let inspectedTabId: number | undefined;
  const runs = new Map<string, AbortController>();
  const stopWatching = registry.onChange((tabId, tabTools) => {
    if (tabId === inspectedTabId) channel.post({ type: 'tab-tools', tabId, tabTools: tabTools ?? null });
  });
  channel.onMessage((request) => {
    switch (request.type) {
      case 'inspect':
        inspectedTabId = request.tabId;
        requestTabTools(request.tabId, { lookAgain: true });
        void registry.get(request.tabId).then((tabTools) => {
          if (inspectedTabId === request.tabId) channel.post({ type: 'tab-tools', tabId: request.tabId, tabTools: tabTools ?? null });
        });
        return;
      case 'run-tool':
        if (inspectedTabId !== undefined) void run(inspectedTabId, request);
        return;
      case 'cancel-run':
        runs.get(request.runId)?.abort(new DOMException('Stopped by hand.', 'AbortError'));
        return;
    }
  });
  channel.onDisconnect(() => {
    stopWatching();
    for (const controller of runs.values()) controller.abort(new DOMException('The inspector closed.', 'AbortError'));
  });

  async function run(tabId: number, request: Extract<InspectorRequest, { type: 'run-tool' }>): Promise<void> {
    const controller = new AbortController();
    runs.set(request.runId, controller);
    const started = performance.now();
    const options = {
      signal: controller.signal,
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(request.frameId === undefined ? {} : { frameId: request.frameId }),
      ...(request.documentId === undefined ? {} : { documentId: request.documentId }),
    };
    const output = await executeTabTool(registry, tabId, request.name, request.args, options).catch(
      () => ({ text: 'Stopped before the tool answered.', isError: true }),
    );
    runs.delete(request.runId);
    channel.post({ type: 'run-result', runId: request.runId, output, durationMs: Math.round(performance.now() - started) });
  }
}
