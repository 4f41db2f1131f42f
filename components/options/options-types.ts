// The types the options page's model and its parts share: the parts import them from here, not
// from the model that is made of them.
import type { GpuLike } from '@/lib/engines/webgpu-check';
import type { LanguageModelApi } from '@/lib/engines/prompt-api/prompt-api-types';
import type { CacheStorageLike } from '@/lib/engines/webllm/model-storage';
import type { Settings, SettingsChange } from '@/lib/settings';
import type { ModelLoadNews } from '@/lib/agent/model-load-port';
import type { Channel } from '@/lib/messaging/port-channel';

/** The world the options page reads and changes; tests pass fakes. */
export interface OptionsDependencies {
  settings?: { load(): Promise<Settings>; update(change: SettingsChange): Promise<Settings>; watch(listener: (settings: Settings) => void): () => void };
  gpu?: GpuLike;
  languageModel?: LanguageModelApi;
  caches?: CacheStorageLike;
  estimateStorage?: () => Promise<{ usage?: number; quota?: number }>;
  /** Deletes stored models by their weights' base URLs (all where undefined): by default the service worker does, after stopping a load of them. */
  deleteModels?: (baseUrls: readonly string[] | undefined) => Promise<void>;
  /** Tells the side panels a model was downloaded or stored ones deleted: by default through the service worker. */
  modelsChanged?: () => Promise<void>;
  /** Opens the service worker's load of WebLLM's model for "Download now" (see `modelLoadPort`). */
  connectModelLoad?: () => Channel<never, ModelLoadNews>;
  /** The same for WebLLM's "Try it", which the worker answers too (see `modelTrialPort`). */
  connectModelTrial?: () => Channel<never, ModelLoadNews>;
  /** Follows the engine's status, to show a load another page began (see `modelStatusPort`). */
  connectModelStatus?: () => Channel<never, ModelLoadNews>;
  /** Calls `listener` as the background says a load begins (see `modelLoadingSchema`); returns a function that stops it. */
  hearModelLoading?: (listener: () => void) => () => void;
  /** Whether the extension's service worker runs now: a stopped one loads nothing, and is not woken to say so. */
  workerRunning?: () => Promise<boolean>;
  fetch?: typeof fetch;
  /** How long Connect and Try it wait for the server; tests shorten them. */
  timeouts?: { connectMs?: number; trialReplyMs?: number };
}

export type PromptApiState = 'checking' | 'absent' | 'unavailable' | 'downloadable' | 'downloading' | 'available';
export type SiteList = 'disabledSites' | 'allowedSites';
/** A site a list refused, and why. */
export interface SiteFailure {
  message: string;
  /** Counts refusals, so that the same words refused again are drawn (and heard) afresh. */
  attempt: number;
}
