import type { EnginePreview } from '../engines/engine-preview';
import type { AgentSessionsBackground } from './agent-sessions-background';
import type { Settings } from '../settings';

const previewLifetimeMs = 5_000;

/**
 * What the first request would load, told before it (WebLLM's model and download; whether
 * Chrome's built-in model can run here; the model a server picked for an earlier worker). Asked
 * again after every load and every settings change (`clear`), and by a snapshot built once the
 * last answer is a few seconds old: the options page may have deleted the model meanwhile.
 */
export function createModelPreviews(background: Pick<AgentSessionsBackground, 'previewWebLlm' | 'previewPromptApi' | 'serverModels'>) {
  const previews = new Map<string, { at: number; preview: Promise<EnginePreview | undefined> }>();
  return {
    previewFor(settings: Settings): Promise<EnginePreview | undefined> {
      const ask = previewOf(settings, background);
      if (!ask) return Promise.resolve(undefined);
      const key = JSON.stringify([settings.engine, settings.model, settings.engine === 'openai' ? settings.openaiBaseUrl : '']);
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

function previewOf(settings: Settings, background: Pick<AgentSessionsBackground, 'previewWebLlm' | 'previewPromptApi' | 'serverModels'>): (() => Promise<EnginePreview>) | undefined {
  const { previewWebLlm, previewPromptApi, serverModels } = background;
  if (settings.engine === 'webllm' && previewWebLlm) return () => previewWebLlm(settings.model);
  if (settings.engine === 'prompt-api' && previewPromptApi) return previewPromptApi;
  if (settings.engine === 'openai' && serverModels) return () => serverModels.preview(settings);
  return undefined;
}

export type ModelPreviews = ReturnType<typeof createModelPreviews>;
