import type { EngineId } from './engine';

/**
 * Each engine's name, the one place it is written: the options page's choices, the panel's status
 * line, the trace viewer and the engines' own messages all read it.
 */
export const engineLabels: Readonly<Record<EngineId, string>> = {
  webllm: 'WebLLM (on this GPU)',
  'prompt-api': "Chrome's built-in model",
  openai: 'Local server (OpenAI-compatible)',
  replay: 'Replay',
};
