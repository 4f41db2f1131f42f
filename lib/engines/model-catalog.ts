import type { PromptFormatId } from '@webmcp-agents/local-agent';

export type Quantization = 'q4f16_1' | 'q4f32_1';

/** One WebLLM build offered in the options, with what a person needs to choose it. */
export interface CatalogModel {
  /** WebLLM's `model_id`. */
  id: string;
  /** The model without its build, e.g. "Qwen3 1.7B". */
  family: string;
  quantization: Quantization;
  /** Megabytes downloaded once (the Qwen3 q4f16 figures are measured, the rest estimated). */
  downloadMB: number;
  /** GPU memory it needs, WebLLM's `vram_required_MB`. */
  memoryMB: number;
  contextTokens: number;
  format: PromptFormatId;
  /** 16-bit builds need the GPU's `shader-f16` feature. */
  needsShaderF16: boolean;
  /** Hugging Face repository of the weights, as in WebLLM's model list. */
  repository: string;
  /** File name of the compiled model library in WebLLM's model list. */
  libraryFile: string;
  /** Qwen3 thinks before answering unless told not to; the engine turns it off for speed. */
  hasThinkingMode: boolean;
  /** Why it is in the list, in a sentence. */
  why: string;
}

interface Family {
  family: string;
  stem: string;
  libraryStem: string;
  format: PromptFormatId;
  hasThinkingMode?: boolean;
  sizesMB: Record<Quantization, { download: number; memory: number }>;
  why: string;
}

const families: readonly Family[] = [
  {
    family: 'Qwen3 1.7B',
    stem: 'Qwen3-1.7B',
    libraryStem: 'Qwen3-1.7B',
    format: 'hermes',
    hasThinkingMode: true,
    sizesMB: { q4f16_1: { download: 990, memory: 2037 }, q4f32_1: { download: 1100, memory: 2635 } },
    why: 'The default on most computers: the best tool caller of its size (about 49% on BFCL v3), in the Hermes <tool_call> format that constrained decoding can enforce.',
  },
  {
    family: 'Qwen3 0.6B',
    stem: 'Qwen3-0.6B',
    libraryStem: 'Qwen3-0.6B',
    format: 'hermes',
    hasThinkingMode: true,
    sizesMB: { q4f16_1: { download: 357, memory: 1403 }, q4f32_1: { download: 400, memory: 1925 } },
    why: 'For small or software GPUs: a third of the download, and it still follows the Hermes tool format for simple tasks.',
  },
  {
    family: 'Qwen3 4B',
    stem: 'Qwen3-4B',
    libraryStem: 'Qwen3-4B',
    format: 'hermes',
    hasThinkingMode: true,
    sizesMB: { q4f16_1: { download: 2285, memory: 3432 }, q4f32_1: { download: 2540, memory: 4328 } },
    why: 'The most capable model here, for GPUs with 4 GB or more to spare: better at multi-step tasks.',
  },
  {
    family: 'Qwen2.5 1.5B',
    stem: 'Qwen2.5-1.5B-Instruct',
    libraryStem: 'Qwen2-1.5B-Instruct',
    format: 'hermes',
    sizesMB: { q4f16_1: { download: 880, memory: 1630 }, q4f32_1: { download: 980, memory: 1889 } },
    why: 'Qwen3\'s predecessor with the same tool format and no thinking mode: a fallback when Qwen3 misbehaves.',
  },
  {
    family: 'Qwen2.5 3B',
    stem: 'Qwen2.5-3B-Instruct',
    libraryStem: 'Qwen2.5-3B-Instruct',
    format: 'hermes',
    sizesMB: { q4f16_1: { download: 1760, memory: 2505 }, q4f32_1: { download: 1950, memory: 2894 } },
    why: 'A larger Qwen2.5 in the same format, for GPUs with about 3 GB free.',
  },
  {
    family: 'Hermes 3 Llama 3.2 3B',
    stem: 'Hermes-3-Llama-3.2-3B',
    libraryStem: 'Llama-3.2-3B-Instruct',
    format: 'hermes',
    sizesMB: { q4f16_1: { download: 1830, memory: 2264 }, q4f32_1: { download: 2030, memory: 2952 } },
    why: 'Trained on the Hermes <tool_call> format itself; a Llama alternative to Qwen.',
  },
  {
    family: 'Llama 3.2 3B',
    stem: 'Llama-3.2-3B-Instruct',
    libraryStem: 'Llama-3.2-3B-Instruct',
    format: 'llama3-json',
    sizesMB: { q4f16_1: { download: 1830, memory: 2264 }, q4f32_1: { download: 2030, memory: 2952 } },
    why: 'Meta\'s JSON tool format; strong on benchmarks but it rarely declines to call a tool.',
  },
  {
    family: 'Llama 3.2 1B',
    stem: 'Llama-3.2-1B-Instruct',
    libraryStem: 'Llama-3.2-1B-Instruct',
    format: 'llama3-json',
    sizesMB: { q4f16_1: { download: 710, memory: 879 }, q4f32_1: { download: 790, memory: 1129 } },
    why: 'The lightest model here (under 1 GB of GPU memory), for quick single-tool requests.',
  },
  {
    family: 'SmolLM2 1.7B',
    stem: 'SmolLM2-1.7B-Instruct',
    libraryStem: 'SmolLM2-1.7B-Instruct',
    format: 'hermes',
    sizesMB: { q4f16_1: { download: 970, memory: 1774 }, q4f32_1: { download: 1080, memory: 2692 } },
    why: 'Small and fast with <tool_call> tags, though weaker than Qwen3 at choosing tools.',
  },
];

const quantizations: readonly Quantization[] = ['q4f16_1', 'q4f32_1'];

/** The curated WebLLM models, both builds of each family, best default first. */
export const modelCatalog: readonly CatalogModel[] = families.flatMap((family) =>
  quantizations.map((quantization) => ({
    id: `${family.stem}-${quantization}-MLC`,
    family: family.family,
    quantization,
    downloadMB: family.sizesMB[quantization].download,
    memoryMB: family.sizesMB[quantization].memory,
    contextTokens: 4096,
    format: family.format,
    needsShaderF16: quantization === 'q4f16_1',
    repository: `mlc-ai/${family.stem}-${quantization}-MLC`,
    libraryFile: `${family.libraryStem}-${quantization}_cs1k-webgpu.wasm`,
    hasThinkingMode: family.hasThinkingMode ?? false,
    why: family.why,
  })),
);

export const defaultFamily = 'Qwen3 1.7B';
export const smallFamily = 'Qwen3 0.6B';

export function findCatalogModel(modelId: string): CatalogModel | undefined {
  return modelCatalog.find((model) => model.id === modelId);
}

/** "Qwen3 1.7B (q4f16)", as the options and the progress bar name it. */
export function modelLabel(model: CatalogModel): string {
  return `${model.family} (${model.quantization.slice(0, 5)})`;
}

/** The build of a family that this GPU can run: 16-bit where it has `shader-f16`, else 32-bit. */
export function buildFor(family: string, shaderF16: boolean): CatalogModel | undefined {
  const quantization: Quantization = shaderF16 ? 'q4f16_1' : 'q4f32_1';
  return modelCatalog.find((model) => model.family === family && model.quantization === quantization);
}

/**
 * A smaller model this GPU can run, to offer after running out of memory: the largest Qwen3 that
 * needs less memory, else the lightest model in the list.
 */
export function smallerModelThan(modelId: string, shaderF16: boolean): CatalogModel | undefined {
  const memoryMB = findCatalogModel(modelId)?.memoryMB ?? Number.POSITIVE_INFINITY;
  // The 16-bit builds are smaller and faster wherever the GPU can run them.
  const runnable = modelCatalog.filter((model) => model.memoryMB < memoryMB && model.needsShaderF16 === shaderF16);
  const byMemoryDescending = [...runnable].sort((a, b) => b.memoryMB - a.memoryMB);
  return byMemoryDescending.find((model) => model.family.startsWith('Qwen3')) ?? byMemoryDescending.at(-1);
}

/**
 * The tool format for a model the catalog does not list (another WebLLM build, or a local
 * server's model), guessed from its name: Qwen, Hermes and most others take Hermes tags.
 */
export function formatForModelName(name: string): PromptFormatId {
  const lower = name.toLowerCase();
  if (lower.includes('lfm2')) return 'lfm2';
  if (/llama[-_. ]?3/.test(lower) && !lower.includes('hermes')) return 'llama3-json';
  return 'hermes';
}
