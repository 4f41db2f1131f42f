import type { WebLlmPreview } from '../engines/webllm/preview-webllm';
import type { Settings } from '../settings';

const previewLifetimeMs = 5_000;

/**
 * What the first request would load, told before it. Asked again after every load and every
 * settings change (`clear`), and by a snapshot built once the last answer is a few seconds old:
 * the options page may have deleted the model meanwhile.
 */
export function createModelPreviews(background: { previewWebLlm?(model: string): Promise<WebLlmPreview> }) {
  const previews = new Map<string, { at: number; preview: Promise<WebLlmPreview | undefined> }>();
  return {
    previewFor(settings: Settings): Promise<WebLlmPreview | undefined> {
      if (settings.engine !== 'webllm' || !background.previewWebLlm) return Promise.resolve(undefined);
      const known = previews.get(settings.model);
      if (known && Date.now() - known.at < previewLifetimeMs) return known.preview;
      const preview = background.previewWebLlm(settings.model).catch(() => undefined);
      previews.set(settings.model, { at: Date.now(), preview });
      return preview;
    },
    clear(): void {
      previews.clear();
    },
  };
}

export type ModelPreviews = ReturnType<typeof createModelPreviews>;
