import { signal, type ReadonlySignal } from '@preact/signals';
import type { EngineLoadProgress } from '@/lib/engines/engine';
import { createPromptApiEngine } from '@/lib/engines/prompt-api/prompt-api-engine';
import { browserLanguageModel, englishText } from '@/lib/engines/prompt-api/prompt-api-types';
import { tellModelsChanged } from '@/lib/agent/models-changed-message';
import type { Settings } from '@/lib/settings';
import { describeFailure, type Failure } from '@/lib/engines/describe-failure';
import type { OptionsDependencies, PromptApiState } from './options-types';

interface PromptApiSetupParts {
  dependencies: Pick<OptionsDependencies, 'languageModel' | 'modelsChanged'>;
  settings: ReadonlySignal<Settings | undefined>;
  /** Reads the settings from storage, where the page has none yet. */
  loadSettings(): Promise<Settings>;
}

/**
 * Whether Chrome's built-in model can run here, and its download: Chrome wants that to start from
 * the person's click, so the options page offers it and shows how far it came, or why it failed.
 */
export function createPromptApiSetup({ dependencies, settings, loadSettings }: PromptApiSetupParts) {
  const state = signal<PromptApiState>('checking');
  const progress = signal<EngineLoadProgress | undefined>(undefined);
  const busy = signal(false);
  const failure = signal<Failure | undefined>(undefined);
  /** The person stopped waiting for the last download. */
  const cancelled = signal(false);
  let downloading: AbortController | undefined;

  async function check(): Promise<void> {
    const api = dependencies.languageModel ?? browserLanguageModel();
    if (!api) {
      state.value = 'absent';
      return;
    }
    state.value = await api.availability(englishText).catch(() => 'unavailable' as const);
  }

  async function download(): Promise<void> {
    // One download at a time: the button waits for this one.
    if (busy.value) return;
    busy.value = true;
    failure.value = undefined;
    cancelled.value = false;
    const controller = new AbortController();
    downloading = controller;
    let engine: ReturnType<typeof createPromptApiEngine> | undefined;
    try {
      engine = createPromptApiEngine(settings.value ?? (await loadSettings()), {
        ...(dependencies.languageModel ? { languageModel: dependencies.languageModel } : {}),
      });
      // Chrome's create() may not heed the signal while its download stalls: the wait ends anyway,
      // the download's later word moves no bar, and should Chrome finish it, the page says so.
      const loaded = engine.load((next) => void (controller.signal.aborted || (progress.value = next)), controller.signal);
      void loaded.then(
        async () => {
          if (controller.signal.aborted) await check();
        },
        () => {},
      );
      await Promise.race([loaded, abortion(controller.signal)]);
    } catch (error) {
      if (!controller.signal.aborted) failure.value = describeFailure(error);
    } finally {
      downloading = undefined;
      await engine?.unload?.().catch(() => {});
      progress.value = undefined;
      busy.value = false;
    }
    await check();
    // The model came after all (Chrome went on, or only a later step failed): it is here, and the
    // page says so alone, not beside a download that "failed".
    if (state.value === 'available') failure.value = undefined;
    // The side panels said to press Download here first.
    if (state.value === 'available') void (dependencies.modelsChanged ?? tellModelsChanged)();
  }

  /** Stops waiting for the download; Chrome, which fetches its model itself, may go on with it. */
  function cancel(): void {
    if (!downloading) return;
    cancelled.value = true;
    downloading.abort();
  }

  return {
    state: state as ReadonlySignal<PromptApiState>,
    progress: progress as ReadonlySignal<EngineLoadProgress | undefined>,
    busy: busy as ReadonlySignal<boolean>,
    failure: failure as ReadonlySignal<Failure | undefined>,
    cancelled: cancelled as ReadonlySignal<boolean>,
    check,
    download,
    cancel,
  };
}

/** Rejects once `signal` aborts, at once where it has already. */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
