import { createProseFilter, type ModelUsage } from '@webmcp-agents/local-agent';
import { secondsText } from '../text/seconds-text';
import { EngineError, type Engine, type EngineLoadProgress } from './engine';
import { describeFailure, type Failure } from './describe-failure';
import { createInlineThoughtWatch } from './inline-thought-watch';

/** One short exchange with an engine, as the options page shows it while it runs and after. */
export interface Trial {
  running: boolean;
  progress?: EngineLoadProgress;
  /** The reply's prose, as the side panel shows it: its thoughts and any markup held back. */
  reply: string;
  /** Text has come, none of it prose yet: the model thinks before it answers. */
  thinking?: boolean;
  usage?: ModelUsage;
  failure?: Failure;
  /** The person pressed Cancel. */
  cancelled?: boolean;
  /** The load has brought nothing for a minute (a download the worker runs says so). */
  stalled?: boolean;
  /** How many trials in a row have failed, this one included (the options page counts them). */
  failures?: number;
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
    const prose = createProseFilter();
    const thoughts = createInlineThoughtWatch();
    for await (const chunk of engine.model.stream(request)) {
      if (chunk.type === 'usage') change({ usage: chunk.usage });
      // Thoughts the engine gives apart from the reply: the model thinks until its words come (said
      // once, not at every piece of them).
      else if (chunk.type === 'thinking') {
        const thinking = trial.reply === '';
        if (trial.thinking !== thinking) change({ thinking });
      }
      // An empty piece says only that more came that the engine holds (a call's pieces): no sign
      // of thinking by itself.
      else if (chunk.text !== '') change(shownWith(prose.push(chunk.text), thoughts.read(chunk.text) === 'thinking'));
    }
    change(shownWith(prose.flush(), false));
    // An engine may end a stopped reply quietly rather than throw.
    const ended = stopped(options.signal, timeout);
    change({ running: false, thinking: false, ...(ended ?? (trial.reply.trim() === '' ? { failure: describeFailure(emptyReply()) } : {})) });
  } catch (error) {
    change({ running: false, thinking: false, ...(stopped(options.signal, timeout) ?? { failure: describeFailure(error) }) });
  }

  /**
   * The reply with `shown` added. Until it shows something, the model thinks where its text opened
   * a `<think>` (`inThought`), or as it said before (thoughts sent apart); a call, which shows
   * nothing either, is no thinking.
   */
  function shownWith(shown: string, inThought: boolean): Partial<Trial> {
    const reply = trial.reply + shown;
    return { reply, thinking: reply === '' && (inThought || trial.thinking === true) };
  }

  // What the page says when the trial was stopped, by the person or by the time limit.
  function stopped(cancel: AbortSignal, replyTimeout: AbortSignal | undefined): Partial<Trial> | undefined {
    if (cancel.aborted) return { cancelled: true };
    if (!replyTimeout?.aborted) return undefined;
    // A model that was thinking had started: it is slow, not silent.
    const started = trial.reply !== '' || trial.thinking === true;
    const error = started ? tooSlow(replyTimeoutMs) : (options.silent?.(replyTimeoutMs) ?? noAnswer(replyTimeoutMs));
    return { failure: describeFailure(error) };
  }
}

/** The reply ended with no words: nothing, only thoughts, or only markup (a tool call no one asked for). */
function emptyReply(): EngineError {
  return new EngineError(
    'unavailable',
    'The model answered, but with no words for the person: its reply was empty, or only thoughts or a tool call.',
    'Press Try it again; if it stays empty, pick another model.',
  );
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
