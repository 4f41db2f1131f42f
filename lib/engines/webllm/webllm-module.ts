import type {
  AppConfig,
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  ChatOptions,
  InitProgressCallback,
  MLCEngineConfig,
} from '@mlc-ai/web-llm';
import { importWebLlm } from './webllm-script';

/** The part of WebLLM's `MLCEngine` this extension uses. */
export interface WebLlmEngineLike {
  reload(modelId: string, chatOptions?: ChatOptions): Promise<void>;
  unload(): Promise<void>;
  interruptGenerate(): void | Promise<void>;
  setInitProgressCallback(callback: InitProgressCallback): void;
  /** Rejects with `ModelNotLoadedError` when no model is loaded: a cheap check that one is. */
  getMessage(modelId?: string): Promise<string>;
  chat: {
    completions: {
      create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
    };
  };
}

/**
 * The part of the `@mlc-ai/web-llm` module this extension uses: the seam through which tests put
 * a fake underneath the real engine code.
 */
export interface WebLlmModule {
  MLCEngine: new (config?: MLCEngineConfig) => WebLlmEngineLike;
  hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
  prebuiltAppConfig: AppConfig;
}

/**
 * The real WebLLM, read into the service worker the first time one of its parts is used (see
 * `importWebLlm`): not at every start of the worker.
 */
export const realWebLlm: WebLlmModule = {
  get MLCEngine() {
    return importWebLlm().MLCEngine;
  },
  hasModelInCache: async (modelId, appConfig) => importWebLlm().hasModelInCache(modelId, appConfig),
  deleteModelAllInfoInCache: async (modelId, appConfig) => importWebLlm().deleteModelAllInfoInCache(modelId, appConfig),
  get prebuiltAppConfig() {
    return importWebLlm().prebuiltAppConfig;
  },
};
