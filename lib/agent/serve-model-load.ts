import { runTrial } from '../engines/run-trial';
import type { Channel } from '../messaging/port-channel';
import type { createLoadForOptions } from './load-for-options';
import { errorMessage } from '../messaging/error-message';
import type { ModelLoadNews } from './model-load-port';
import type { EngineStatus } from './session-state';

/**
 * Serves one options page's port (see `modelLoadPort`, `modelTrialPort`): the model loads while the
 * port is open, the page hearing how; with `trial`, the loaded model then answers the trial's
 * request in this worker, held meanwhile as a run holds it (no other tab's model replaces it under
 * the reply), and the page hears the reply as it comes. Closing the port stops both.
 */
export function serveModelLoad(channel: Channel<ModelLoadNews, never>, load: ReturnType<typeof createLoadForOptions>, { trial = false } = {}): Promise<void> {
  const closed = new AbortController();
  channel.onDisconnect(() => closed.abort());
  return load(closed.signal, (status) => channel.post({ type: 'status', status }), { hold: trial })
    .then(async ({ outcome, status, engine, release }) => {
      try {
        channel.post({ type: 'ended', outcome, status });
        if (!trial || !engine || closed.signal.aborted) return;
        await runTrial(engine, ({ progress: _progress, ...shown }) => channel.post({ type: 'trial', trial: shown }), { signal: closed.signal });
      } finally {
        release?.();
      }
    })
    .catch((error: unknown) => {
      // Never left waiting: the page hears that it failed, and why.
      const status: EngineStatus = { engineId: 'webllm', engineLabel: 'WebLLM', model: '', state: 'error', error: `The model could not load: ${errorMessage(error)}` };
      channel.post({ type: 'ended', outcome: 'failed', status });
    });
}
