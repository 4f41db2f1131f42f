import type { ModelLoadNews } from '@/lib/agent/model-load-port';
import type { Trial } from '@/lib/engines/run-trial';
import type { Channel } from '@/lib/messaging/port-channel';
import { failureOf, hintForThisPage, pageOutlived, progressOf } from './webllm-download';

/**
 * "Try it" for WebLLM, whose model the service worker holds: the worker loads it (its progress is
 * the trial's) and has it answer the trial's request, and the page shows the reply as it comes.
 * Ends when the trial has: answered, failed, or stopped by `signal` (the person's Cancel).
 */
export function runTrialInWorker(connect: () => Channel<never, ModelLoadNews>, onChange: (trial: Trial) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let trial: Trial = { running: true, reply: '' };
    let over = false;
    const change = (next: Partial<Trial>) => onChange((trial = { ...trial, ...next }));
    const end = (last: Partial<Trial>) => {
      if (over) return;
      over = true;
      change({ running: false, thinking: false, progress: undefined, stalled: false, ...last });
      channel.disconnect();
      resolve();
    };
    let channel: Channel<never, ModelLoadNews>;
    try {
      channel = connect();
    } catch {
      over = true;
      change({ running: false, failure: pageOutlived });
      resolve();
      return;
    }
    change({});
    signal.addEventListener('abort', () => end({ cancelled: true }), { once: true });
    channel.onMessage((news) => {
      if (over) return;
      if (news.type === 'status') {
        const { progress, stalled } = progressOf(news.status);
        change({ progress, stalled: stalled === true });
      } else if (news.type === 'ended') {
        // Loaded: the reply comes next. Failed: its words say why. Another engine chosen meanwhile: nothing to show.
        if (news.outcome === 'failed') end({ failure: failureOf(news.status) });
        else if (news.outcome === 'not-on-gpu') end({});
        else change({ progress: undefined, stalled: false });
      } else {
        const { failure, ...shown } = news.trial;
        const worded = failure && { failure: failure.hint ? { ...failure, hint: hintForThisPage(failure.hint) } : failure };
        if (news.trial.running) change({ ...shown, ...worded });
        else end({ ...shown, ...worded });
      }
    });
    channel.onDisconnect(() =>
      end({ failure: { message: "The trial stopped: the extension's background stopped with it (an update or a reload of the extension, say).", hint: 'Press Try it again.' } }),
    );
    if (signal.aborted) end({ cancelled: true });
  });
}
