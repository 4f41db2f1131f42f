import { engineHoldsGpu } from '../engines/engine-holds-gpu';
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
 * A panel opened on a tab: the model on this computer's GPU is loaded then, while the person
 * writes, so that the first request does not wait for it (reading its weights into the GPU takes
 * seconds). Only a model stored on this computer (a download waits for a request, as the panel
 * says), and only for a tab where a request can be sent: its page offers tools, on a site where the
 * agent is on. The panels show the load as a request's; a request sent meanwhile waits for it, a
 * failure is told as the status line tells any, and the next request tries again.
 */
export function createLoadAhead({ loadSettings, getTabTools, engines, previews }: LoadAheadParts): (tabId: number) => Promise<void> {
  return async (tabId) => {
    const [settings, page] = await Promise.all([loadSettings(), getTabTools(tabId)]);
    if (!engineHoldsGpu[settings.engine] || !page || page.tools.length === 0 || agentOffOn(settings.disabledSites, page.origin)) return;
    const preview = await previews.previewFor(settings);
    if (!preview || 'error' in preview || preview.downloadMB !== undefined || preview.goAheadFirst) return;
    await engines.load(settings, new AbortController().signal);
  };
}
