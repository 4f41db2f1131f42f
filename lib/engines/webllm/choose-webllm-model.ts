import type { AppConfig } from '@mlc-ai/web-llm';
import type { PromptFormatId } from '@webmcp-agents/local-agent';
import { EngineError } from '../engine';
import { buildFor, findCatalogModel, formatForModelName, modelLabel, type CatalogModel } from '../model-catalog';
import { defaultModelFor, type WebGpuStatus } from '../webgpu-check';

export interface WebLlmModelChoice {
  id: string;
  label: string;
  format: PromptFormatId;
  /** The catalog's entry, when the model is one of the curated ones. */
  catalog?: CatalogModel;
  /** Said in the progress text when the choice differs from what the settings asked. */
  note?: string;
}

type AvailableGpu = Extract<WebGpuStatus, { available: true }>;

/** What the panels and the options say where a 16-bit build gives way to its 32-bit twin. */
export const twinNote = 'Using the q4f32 build: this GPU has no 16-bit shaders (shader-f16).';

/**
 * The WebLLM model to load: the one in the settings, or the default for this GPU when none is
 * set; a 16-bit build on a GPU without `shader-f16` is swapped for its 32-bit twin.
 */
export function chooseWebLlmModel(requested: string, gpu: AvailableGpu, appConfig: AppConfig): WebLlmModelChoice {
  if (!requested) return fromCatalog(defaultModelFor(gpu));
  const catalog = findCatalogModel(requested);
  if (catalog) {
    if (!catalog.needsShaderF16 || gpu.shaderF16) return fromCatalog(catalog);
    const twin = buildFor(catalog.family, false);
    if (twin) {
      return { ...fromCatalog(twin), note: twinNote };
    }
  }
  const record = appConfig.model_list.find((candidate) => candidate.model_id === requested);
  if (!record) {
    throw new EngineError(
      'not-configured',
      `WebLLM has no model called "${requested}".`,
      'Pick a model from the list in the options, or leave it on the default.',
    );
  }
  if (record.required_features?.includes('shader-f16') && !gpu.shaderF16) {
    throw new EngineError(
      'unavailable',
      `This GPU cannot run ${requested}: it lacks 16-bit shaders (shader-f16).`,
      'Pick a q4f32 build in the options, or leave the model on the default.',
    );
  }
  return { id: requested, label: requested.replace(/-MLC$/, ''), format: formatForModelName(requested) };
}

function fromCatalog(model: CatalogModel): WebLlmModelChoice {
  return { id: model.id, label: modelLabel(model), format: model.format, catalog: model };
}
