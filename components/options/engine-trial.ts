import { signal, type ReadonlySignal } from '@preact/signals';
import type { Engine } from '@/lib/engines/engine';
import { engineHoldsGpu } from '@/lib/engines/engine-holds-gpu';
import { createOpenAiEngine } from '@/lib/engines/openai/openai-engine';
import { serverStalled } from '@/lib/engines/openai/server-errors';
import { createPromptApiEngine } from '@/lib/engines/prompt-api/prompt-api-engine';
import type { Settings } from '@/lib/settings';
import type { OptionsDependencies } from './options-types';
import { runTrial, type Trial } from '@/lib/engines/run-trial';
import { modelTrialPort } from '@/lib/agent/model-load-port';
import { connectChannel } from '@/lib/messaging/port-channel';
import { runTrialInWorker } from './worker-trial';

interface EngineTrialParts {
  dependencies: Pick<OptionsDependencies, 'languageModel' | 'fetch' | 'timeouts' | 'connectModelTrial'>;
  settings: ReadonlySignal<Settings | undefined>;
  /** Reads the settings from storage, where the page has none yet. */
  loadSettings(): Promise<Settings>;
  /** A trial of Chrome's model may have started its download: the page asks again where it stands. */
  checkPromptApi(): Promise<void>;
}

/**
 * "Try it": the chosen engine loaded here (WebLLM's in the service worker) for one short reply, to
 * show that it works and how fast.
 * A trial's reply belongs to the engine, server and model it tried, so a new choice drops it.
 */
export function createEngineTrial({ dependencies, settings, loadSettings, checkPromptApi }: EngineTrialParts) {
  const trial = signal<Trial | undefined>(undefined);
  // Which trial may still write `trial`: one started before the engine changed may not.
  let trialNumber = 0;
  // Stops the running trial: the person's Cancel, or a change that makes its answer moot.
  let trialCancel = new AbortController();

  function drop(): void {
    trialNumber += 1;
    trialCancel.abort();
    trial.value = undefined;
  }

  async function run(): Promise<void> {
    const current = settings.value ?? (await loadSettings());
    const mine = (trialNumber += 1);
    trialCancel = new AbortController();
    // Failures in a row: a try that fails at once as the last did is told apart from it.
    const failedBefore = trial.peek()?.failures ?? 0;
    const show = (next: Trial) => {
      if (mine !== trialNumber) return;
      trial.value = next.failure ? { ...next, failures: failedBefore + 1 } : next;
    };
    // The worker holds WebLLM's model, and tries it there: a second copy here could exhaust the GPU.
    if (engineHoldsGpu[current.engine]) return runTrialInWorker(dependencies.connectModelTrial ?? (() => connectChannel(modelTrialPort)), show, trialCancel.signal);
    const engine = trialEngine(current, dependencies);
    if (!engine) return;
    const options = {
      signal: trialCancel.signal,
      ...(dependencies.timeouts?.trialReplyMs ? { replyTimeoutMs: dependencies.timeouts.trialReplyMs } : {}),
      ...(current.engine === 'openai' ? { silent: (waitedMs: number) => serverStalled(current.openaiBaseUrl, 'first-byte', waitedMs) } : {}),
    };
    try {
      await runTrial(engine, show, options);
    } finally {
      // The options page holds no model between trials (a built-in model session, GPU memory).
      await engine.unload?.().catch(() => {});
    }
    if (current.engine === 'prompt-api') await checkPromptApi();
  }

  return {
    trial: trial as ReadonlySignal<Trial | undefined>,
    drop,
    run,
    /** The person's Cancel while a trial runs. */
    cancel(): void {
      trialCancel.abort();
    },
  };
}

/** The engine tried in this page: Chrome's built-in model, or a server. */
function trialEngine(settings: Settings, dependencies: Pick<OptionsDependencies, 'languageModel' | 'fetch'>): Engine | undefined {
  if (settings.engine === 'prompt-api') {
    return createPromptApiEngine(settings, dependencies.languageModel ? { languageModel: dependencies.languageModel } : {});
  }
  if (settings.engine === 'openai') return createOpenAiEngine(settings, dependencies.fetch ? { fetch: dependencies.fetch } : {});
  return undefined;
}
