import type { LanguageModel, ModelChunk, ModelRequest } from '@webmcp-agents/local-agent';
import { modelKeptMs, type Settings } from '../../settings';
import { EngineError } from '../engine';
import type { WebLlmModelChoice } from './choose-webllm-model';
import { streamWebLlmReply, type WebLlmReplyOptions } from './stream-webllm-reply';
import { smallerModelLabel, type WebLlmEngineState } from './webllm-engine-state';
import { generationFailure, isDeviceLost } from './webllm-errors';
import { unloadModel, type WebLlmRuntime } from './webllm-runtime';

/**
 * The model a WebLLM engine answers with: one reply at a time in the runtime's engine, with the
 * model its last load chose, the worker kept awake while it writes.
 */
export function createWebLlmReplyModel(runtime: WebLlmRuntime, settings: Settings, state: WebLlmEngineState, keepAwake: () => () => void): LanguageModel {
  return {
    async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
      const passOn = await runtime.replyTurns.take(request.signal);
      if (!passOn) return;
      // Read after the wait: the reply before this one may have ended with another model loaded.
      const engine = runtime.engine;
      if (!engine || !state.choice || runtime.loadedModelId !== state.choice.id) {
        passOn();
        throw state.lostDevice ?? new EngineError('unavailable', 'The WebLLM model is not loaded.', 'Send your request again to load it.');
      }
      const stopKeepingAwake = keepAwake();
      try {
        yield* streamWebLlmReply(engine, request, replyOptions(settings, state.choice));
      } catch (error) {
        const failure = generationFailure(error, state.choice.label, smallerModelLabel(state));
        const deviceLost = isDeviceLost(error) || failure.code === 'device-lost';
        // Only this reply's engine: another run may have loaded a fresh one meanwhile. Also where the
        // reply was told to stop (Stop, or the end of the model's own turn), so the next load starts afresh.
        if (deviceLost && runtime.engine === engine) await unloadModel(runtime);
        // The next reply says why the model is gone, where this one ends without it: told to stop,
        // or ended by the loop where it kept writing the same calls.
        if (deviceLost) state.lostDevice = failure;
        if (!request.signal.aborted) throw failure;
        throw error;
      } finally {
        // A model unloaded by the failure is gone: nothing to keep.
        if (runtime.loadedModelId === state.choice.id) runtime.linger.used(modelKeptMs(settings), keepAwake);
        stopKeepingAwake();
        passOn();
      }
    },
  };
}

/** What a reply asks of WebLLM: the settings' temperature and constraint, the chosen model's thinking and context. */
function replyOptions(settings: Settings, choice: WebLlmModelChoice): WebLlmReplyOptions {
  return {
    modelId: choice.id,
    temperature: settings.temperature,
    replyTokens: settings.replyTokens,
    constrained: settings.constrainedDecoding && choice.format === 'hermes',
    thinkingOff: choice.catalog?.hasThinkingMode ?? /qwen3/i.test(choice.id),
    label: choice.label,
    ...(choice.catalog ? { contextTokens: choice.catalog.contextTokens } : {}),
  };
}
