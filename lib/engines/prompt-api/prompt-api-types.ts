/**
 * The part of Chrome's Prompt API (the `LanguageModel` global, Chrome 138+) this extension uses,
 * typed here because TypeScript's DOM library does not have it yet.
 */
export type LanguageModelAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface LanguageModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LanguageModelExpected {
  type: 'text';
  languages?: string[];
}

export interface LanguageModelCoreOptions {
  expectedInputs?: LanguageModelExpected[];
  expectedOutputs?: LanguageModelExpected[];
  temperature?: number;
  topK?: number;
}

/** `downloadprogress` events: `loaded` is a fraction from 0 to 1 in current Chrome. */
export interface DownloadProgressEvent {
  loaded: number;
  total?: number;
}

export interface CreateMonitor {
  addEventListener(type: 'downloadprogress', listener: (event: DownloadProgressEvent) => void): void;
}

export interface LanguageModelCreateOptions extends LanguageModelCoreOptions {
  initialPrompts?: LanguageModelMessage[];
  monitor?(monitor: CreateMonitor): void;
  signal?: AbortSignal;
}

export interface LanguageModelPromptOptions {
  responseConstraint?: object;
  omitResponseConstraintInput?: boolean;
  signal?: AbortSignal;
}

export interface LanguageModelSession {
  promptStreaming(input: string, options?: LanguageModelPromptOptions): ReadableStream<string>;
  destroy(): void;
  /** Tokens in the session so far (`inputUsage` in older Chrome). */
  readonly contextUsage?: number;
  readonly inputUsage?: number;
  measureContextUsage?(input: string): Promise<number>;
  measureInputUsage?(input: string): Promise<number>;
}

export interface LanguageModelParams {
  defaultTopK: number;
  maxTopK: number;
  defaultTemperature: number;
  maxTemperature: number;
}

export interface LanguageModelApi {
  availability(options?: LanguageModelCoreOptions): Promise<LanguageModelAvailability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
  params?(): Promise<LanguageModelParams | null>;
}

/** The browser's `LanguageModel`, where it has one. */
export function browserLanguageModel(): LanguageModelApi | undefined {
  return (globalThis as { LanguageModel?: LanguageModelApi }).LanguageModel;
}

/** What the extension tells Chrome it will send and expect: English text. */
export const englishText: LanguageModelCoreOptions = {
  expectedInputs: [{ type: 'text', languages: ['en'] }],
  expectedOutputs: [{ type: 'text', languages: ['en'] }],
};
