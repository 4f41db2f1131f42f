import { signal, type ReadonlySignal } from '@preact/signals';
import type { EngineLoadProgress } from '@/lib/engines/engine';
import { createPromptApiEngine } from '@/lib/engines/prompt-api/prompt-api-engine';
import { browserLanguageModel, englishText } from '@/lib/engines/prompt-api/prompt-api-types';
import { tellModelsChanged } from '@/lib/agent/models-changed-message';
import type { Settings } from '@/lib/settings';
import { describeFailure, type Failure } from './describe-failure';
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
    const engine = createPromptApiEngine(settings.value ?? (await loadSettings()), {
      ...(dependencies.languageModel ? { languageModel: dependencies.languageModel } : {}),
    });
    try {
      await engine.load((next) => (progress.value = next));
    } catch (error) {
      failure.value = describeFailure(error);
    } finally {
      await engine.unload?.().catch(() => {});
      progress.value = undefined;
      busy.value = false;
    }
    await check();
    // The side panels said to press Download here first.
    if (state.value === 'available') void (dependencies.modelsChanged ?? tellModelsChanged)();
  }

  return {
    state: state as ReadonlySignal<PromptApiState>,
    progress: progress as ReadonlySignal<EngineLoadProgress | undefined>,
    busy: busy as ReadonlySignal<boolean>,
    failure: failure as ReadonlySignal<Failure | undefined>,
    check,
    download,
  };
}
