import { engineHoldsGpu } from '../engines/engine-holds-gpu';
import { siteOfReport } from '../registry/report-site';
import { agentOffOn, type Settings } from '../settings';
import type { AgentWorld } from './agent-world';
import type { EngineHost } from './engine-host';
import type { ModelPreviews } from './model-previews';

interface LoadAheadParts {
  loadSettings(): Promise<Settings>;
  getTabTools: AgentWorld['getTabTools'];
  engines: Pick<EngineHost, 'load'>;
  previews: ModelPreviews;
}

/**
 * A panel opened: the model on this computer's GPU is loaded then, while the person writes, so
 * that the first request does not wait for it (reading its weights into the GPU takes seconds).
 * Once for each panel (`panel`: its port), not at each tab it turns to: a person going from tab to
 * tab keeps no model loaded by that alone. Only a model stored on this computer (a download waits
 * for a request, as the panel says), and only for a tab where a request can be sent: its page
 * offers tools, on a site where the agent is on. The panels show the load as a request's, and a
 * request sent meanwhile waits for it; a failure says nothing (the next request loads, and tells).
 */
export function createLoadAhead({ loadSettings, getTabTools, engines, previews }: LoadAheadParts): (tabId: number, panel: object) => Promise<void> {
  const panels = new WeakSet<object>();
  return async (tabId, panel) => {
    if (panels.has(panel)) return;
    const [settings, page] = await Promise.all([loadSettings(), getTabTools(tabId)]);
    if (!engineHoldsGpu[settings.engine] || !page || page.tools.length === 0 || agentOffOn(settings.disabledSites, siteOfReport(page))) return;
    const preview = await previews.previewFor(settings);
    if (!preview || 'error' in preview || preview.downloadMB !== undefined || preview.goAheadFirst || panels.has(panel)) return;
    panels.add(panel);
    await engines.load(settings, new AbortController().signal, { quiet: true });
  };
}
