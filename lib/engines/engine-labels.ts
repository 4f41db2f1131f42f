import type { Settings } from '../settings';
import type { EngineId } from './engine';
import { serverAddressHostname } from './openai/server-address';
import { isOnThisMachine } from '../text/on-this-machine';

/**
 * Each engine's name, the one place it is written: the options page's choices, the panel's status
 * line, the trace viewer and the engines' own messages all read it. A server's name says where it
 * runs where the address is known (`engineLabel`); this one is for where it is not (a trace).
 */
export const engineLabels: Readonly<Record<EngineId, string>> = {
  webllm: 'WebLLM (on this GPU)',
  'prompt-api': "Chrome's built-in model",
  openai: 'Model server (OpenAI-compatible)',
  replay: 'Replay',
};

/** An engine's name in a sentence, without where it runs: "WebLLM", "Chrome's built-in model". */
export function engineName(engineId: string): string {
  const label = (engineLabels as Readonly<Record<string, string>>)[engineId];
  return label ? label.replace(/ \(.*\)$/, '') : 'The engine';
}

/**
 * Whether the engine's model runs on a server the extension connects to, not in this browser: its
 * "load" is a connection (no download, no progress to measure), and its silences are the server's.
 */
export function isServerEngine(engineId: string): boolean {
  return engineId === 'openai';
}

/**
 * The engine the settings choose, by name. A server is "Local" only on this computer; elsewhere,
 * where every prompt (the page's text and what its tools return) goes, its host is named.
 */
export function engineLabel(settings: Pick<Settings, 'engine' | 'openaiBaseUrl'>): string {
  if (settings.engine !== 'openai') return engineLabels[settings.engine];
  const hostname = serverAddressHostname(settings.openaiBaseUrl);
  if (hostname === undefined) return engineLabels.openai;
  return isOnThisMachine(hostname) ? 'Local server (OpenAI-compatible)' : `Server at ${hostname} (OpenAI-compatible)`;
}
