import type { EngineId } from './engine';

/** Each engine's name as the panel, the options and the trace viewer show it. */
export const engineLabels: Readonly<Record<EngineId, string>> = {
  webllm: 'WebLLM (on this GPU)',
  'prompt-api': "Chrome's built-in model",
  openai: 'Local server (OpenAI-compatible)',
  replay: 'Replay (recorded replies)',
};
