import { hermesFormat } from '@webmcp-agents/local-agent';
import type { Settings } from '../settings';
import type { Engine, EngineId } from './engine';
import { createOpenAiEngine } from './openai/openai-engine';
import { createPromptApiEngine } from './prompt-api/prompt-api-engine';
import { createReplayEngine } from './replay-engine';
import { replayScriptItem, replayScriptSchema } from './replay-script';
import { createWebLlmEngine } from './webllm/webllm-engine';

type EngineFactory = (settings: Settings) => Engine;

const factories: Readonly<Record<EngineId, EngineFactory>> = {
  replay: createStoredReplayEngine,
  webllm: (settings) => createWebLlmEngine(settings),
  'prompt-api': (settings) => createPromptApiEngine(settings),
  openai: (settings) => createOpenAiEngine(settings),
};

/** The engine the settings ask for. */
export function createEngine(settings: Settings): Engine {
  return factories[settings.engine](settings);
}

/**
 * Replays the replies stored in `replayScript`, one per step, re-read at every load so that a
 * new script takes effect on the next run.
 */
function createStoredReplayEngine(settings: Settings): Engine {
  let model = createReplayEngine([]);
  return {
    id: 'replay',
    modelId: settings.model || 'recorded replies',
    format: hermesFormat,
    get model() {
      return model;
    },
    async load(onProgress) {
      const script = replayScriptSchema.safeParse(await replayScriptItem.getValue());
      const { replies, chunkSize, delayMs } = script.success ? script.data : { replies: [] };
      model = createReplayEngine(replies, { chunkSize, delayMs });
      onProgress({ fraction: 1, text: 'Recorded replies ready.', fromCache: true });
    },
  };
}
