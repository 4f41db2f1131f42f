import type { EnginePreview } from '../engines/engine-preview';
import type { AgentSessionsBackground } from './agent-sessions-background';
import type { Settings } from '../settings';

const previewLifetimeMs = 5_000;

/**
 * What the first request would load, told before it (WebLLM's model and download; whether
 * Chrome's built-in model can run here). Asked again after every load and every settings change
 * (`clear`), and by a snapshot built once the last answer is a few seconds old: the options page
 * may have deleted the model meanwhile.
 */
export function createModelPreviews(background: Pick<AgentSessionsBackground, 'previewWebLlm' | 'previewPromptApi'>) {
  const previews = new Map<string, { at: number; preview: Promise<EnginePreview | undefined> }>();
  return {
    previewFor(settings: Settings): Promise<EnginePreview | undefined> {
      const ask = previewOf(settings, background);
      if (!ask) return Promise.resolve(undefined);
      const key = `${settings.engine}:${settings.model}`;
      const known = previews.get(key);
      if (known && Date.now() - known.at < previewLifetimeMs) return known.preview;
      const preview = ask().catch(() => undefined);
      previews.set(key, { at: Date.now(), preview });
      return preview;
    },
    clear(): void {
      previews.clear();
    },
  };
}

function previewOf(settings: Settings, background: Pick<AgentSessionsBackground, 'previewWebLlm' | 'previewPromptApi'>): (() => Promise<EnginePreview>) | undefined {
  const { previewWebLlm, previewPromptApi } = background;
  if (settings.engine === 'webllm' && previewWebLlm) return () => previewWebLlm(settings.model);
  if (settings.engine === 'prompt-api' && previewPromptApi) return previewPromptApi;
  return undefined;
}

export type ModelPreviews = ReturnType<typeof createModelPreviews>;
