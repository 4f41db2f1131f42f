import { buildFor, findCatalogModel, type CatalogModel } from '@/lib/engines/model-catalog';
import { twinNote } from '@/lib/engines/webllm/choose-webllm-model';
import type { Settings } from '@/lib/settings';
import type { OptionsModel } from './options-model';

/** The WebLLM model the options show, and why it is the one for this computer, where a reason is said. */
export interface WebLlmModelShown {
  model: CatalogModel | undefined;
  reason: string | undefined;
}

/**
 * The model WebLLM loads, as the engine chooses it: the one picked, or the default for this GPU;
 * a 16-bit build on a GPU without 16-bit shaders gives way to its twin.
 */
export function webLlmModelShown(model: OptionsModel, settings: Settings): WebLlmModelShown {
  const status = model.webGpu.value;
  const chosen = findCatalogModel(settings.model);
  const shaderF16 = status?.available === true && status.shaderF16;
  const twin = chosen?.needsShaderF16 && status?.available === true && !shaderF16 ? buildFor(chosen.family, false) : undefined;
  return {
    model: twin ?? chosen ?? (settings.model ? undefined : model.recommendedModel.value),
    reason: settings.model ? (twin ? twinNote : undefined) : model.recommendationReason.value,
  };
}
