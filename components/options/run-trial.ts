import type { ModelUsage } from '@webmcp-agents/local-agent';
import { secondsText } from '@/lib/text/seconds-text';
import { EngineError, type Engine, type EngineLoadProgress } from '@/lib/engines/engine';
import { describeFailure, type Failure } from './describe-failure';

/** One short exchange with an engine, as the options page shows it while it runs and after. */
export interface Trial {
  running: boolean;
  progress?: EngineLoadProgress;
  reply: string;
  usage?: ModelUsage;
  failure?: Failure;
  /** The person pressed Cancel. */
  cancelled?: boolean;
}

export interface TrialOptions {
  /** Aborted by the person's Cancel. */
  signal: AbortSignal;
  /** How long the reply may take once the engine is loaded: 60 s unless set; tests shorten it. */
  replyTimeoutMs?: number;
  /** The engine's own words for a reply that never started in that time, where it has them. */
  silent?: (waitedMs: number) => EngineError;
}

const trialRequest = 'Say hello to the person in one short sentence.';

/** Loads the engine and streams one reply to a fixed request, with the engine's own format. */
export async function runTrial(engine: Engine, onChange: (trial: Trial) => void, options: TrialOptions): Promise<void> {
  let trial: Trial = { running: true, reply: '' };
  const change = (next: Partial<Trial>) => onChange((trial = { ...trial, ...next }));
  change({});
  const replyTimeoutMs = options.replyTimeoutMs ?? 60_000;
  let timeout: AbortSignal | undefined;
  try {
    // Loading has no time limit of its own here: Chrome's model may be downloading.
    await engine.load((progress) => change({ progress }), options.signal);
    const system = engine.format.systemPrompt([], 'You are a helpful assistant in a browser extension.');
    timeout = AbortSignal.timeout(replyTimeoutMs);
    const request = {
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: trialRequest },
      ],
      tools: [],
      signal: AbortSignal.any([options.signal, timeout]),
    };
    for await (const chunk of engine.model.stream(request)) {
      if (chunk.type === 'usage') change({ usage: chunk.usage });
      else change({ reply: trial.reply + chunk.text });
    }
    // An engine may end a stopped reply quietly rather than throw.
    change({ running: false, ...stopped(options.signal, timeout) });
  } catch (error) {
    change({ running: false, ...(stopped(options.signal, timeout) ?? { failure: describeFailure(error) }) });
  }

  // What the page says when the trial was stopped, by the person or by the time limit.
  function stopped(cancel: AbortSignal, replyTimeout: AbortSignal | undefined): Partial<Trial> | undefined {
    if (cancel.aborted) return { cancelled: true };
    if (!replyTimeout?.aborted) return undefined;
    const error = trial.reply ? tooSlow(replyTimeoutMs) : (options.silent?.(replyTimeoutMs) ?? noAnswer(replyTimeoutMs));
    return { failure: describeFailure(error) };
  }
}

/** Nothing came in time, from an engine that has no words of its own for it. */
function noAnswer(waitedMs: number): EngineError {
  return new EngineError(
    'unavailable',
    `The model did not start answering within ${secondsText(waitedMs)}.`,
    'It may still be loading, or be busy. Press Try it again in a moment.',
  );
}

/** The reply came, but not all of it in time: the engine works, slowly. */
function tooSlow(waitedMs: number): EngineError {
  return new EngineError(
    'unavailable',
    `The reply took longer than ${secondsText(waitedMs)}, so it was stopped there.`,
    'The model works, but slowly: it may be busy with another request, or too large for this computer.',
  );
}
