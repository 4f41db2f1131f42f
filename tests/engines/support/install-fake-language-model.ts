export interface FakeLanguageModelOptions {
  availability: 'unavailable' | 'downloadable' | 'downloading' | 'available';
  /** The replies, in order, each a JSON envelope as Chrome's constrained model writes it. */
  replies: string[];
  /** Characters per streamed chunk. */
  chunkSize?: number;
  /** Like Chrome in a page: `create()` for a model still to download needs a click first. */
  needsUserActivation?: boolean;
  /** The session's context in tokens (a token per four characters); 9,216 unless set. */
  contextWindow?: number;
  /** Every prompt's stream fails with this error, as when the model crashes while answering. */
  failWith?: { name: string; message: string };
  /** Every `create()` of a session fails with this error (read at each call), as on a device Chrome finds unfit. */
  createFailsWith?: { name: string; message: string };
  /** Each reply stops coming after this many characters, and its stream stays open, as a model that hangs. */
  stallAt?: number;
  /** What `measureContextUsage` answers instead of its count, as a browser that counts wrong (NaN, say). */
  measuresAs?: number;
}

export interface FakeLanguageModelLog {
  creates: { initialPrompts: { role: string; content: string }[]; temperature?: number; topK?: number }[];
  prompts: { input: string; responseConstraint?: unknown; sessionIndex: number }[];
  destroyed: number;
}

/**
 * Installs a fake `LanguageModel` global with the behaviour of Chrome's Prompt API: availability
 * that turns to "available" once a `create()` has downloaded the model, `downloadprogress` events
 * (a 0..1 fraction) on the create monitor, sessions that keep their context and count tokens,
 * and `promptStreaming` as a ReadableStream of text deltas. Self-contained, so that a browser
 * test can pass it to `addInitScript` as it is.
 */
export function installFakeLanguageModel(options: FakeLanguageModelOptions): void {
  const log: FakeLanguageModelLog = { creates: [], prompts: [], destroyed: 0 };
  let availability = options.availability;
  let replyIndex = 0;
  const tokens = (text: string) => Math.ceil(text.length / 4);
  const domError = (name: string, message: string) => new DOMException(message, name);
  const wait = () => new Promise((resolve) => setTimeout(resolve, 5));

  async function download(monitor: ((target: EventTarget) => void) | undefined, signal?: AbortSignal) {
    const target = new EventTarget();
    monitor?.(target);
    availability = 'downloading';
    for (const loaded of [0, 0.25, 0.5, 0.75, 1]) {
      if (signal?.aborted) throw domError('AbortError', 'The download was aborted.');
      const event = new Event('downloadprogress') as Event & { loaded: number; total: number };
      Object.assign(event, { loaded, total: 1 });
      target.dispatchEvent(event);
      await wait();
    }
    availability = 'available';
  }

  function createSession(initial: { role: string; content: string }[]) {
    const sessionIndex = log.creates.length - 1;
    let usage = initial.reduce((sum, message) => sum + tokens(message.content), 0);
    let destroyed = false;
    const contextWindow = options.contextWindow ?? 9216;
    return {
      get contextUsage() {
        return usage;
      },
      contextWindow,
      async measureContextUsage(text: string) {
        return options.measuresAs ?? tokens(text);
      },
      destroy() {
        destroyed = true;
        log.destroyed += 1;
      },
      promptStreaming(input: string, promptOptions: { responseConstraint?: unknown; signal?: AbortSignal } = {}) {
        if (destroyed) throw domError('InvalidStateError', 'The session was destroyed.');
        log.prompts.push({ input, responseConstraint: promptOptions.responseConstraint, sessionIndex });
        // Chrome drops a session's oldest turns to make room, but refuses an input longer than the whole context.
        if (tokens(input) > contextWindow) {
          return new ReadableStream<string>({
            start(controller) {
              controller.error(domError('QuotaExceededError', 'The input is too large.'));
            },
          });
        }
        const failure = options.failWith;
        if (failure) {
          return new ReadableStream<string>({
            start(controller) {
              controller.error(domError(failure.name, failure.message));
            },
          });
        }
        const reply = options.replies[replyIndex++] ?? '{"type": "message", "text": "(no more replies)"}';
        usage += tokens(input) + tokens(reply);
        let position = 0;
        return new ReadableStream<string>({
          async pull(controller) {
            await wait();
            if (promptOptions.signal?.aborted) return controller.error(domError('AbortError', 'The prompt was aborted.'));
            // As in Chrome, destroying a session ends the prompts still running in it.
            if (destroyed) return controller.error(domError('AbortError', 'The session was destroyed.'));
            if (options.stallAt !== undefined && position >= options.stallAt) return new Promise(() => {});
            if (position >= reply.length) return controller.close();
            controller.enqueue(reply.slice(position, position + (options.chunkSize ?? 6)));
            position += options.chunkSize ?? 6;
          },
        });
      },
    };
  }

  const LanguageModel = {
    async availability() {
      return availability;
    },
    async params() {
      return { defaultTopK: 3, maxTopK: 128, defaultTemperature: 1, maxTemperature: 2 };
    },
    async create(createOptions: {
      initialPrompts?: { role: string; content: string }[];
      monitor?: (target: EventTarget) => void;
      signal?: AbortSignal;
      temperature?: number;
      topK?: number;
    } = {}) {
      if (availability === 'unavailable') throw domError('NotSupportedError', 'The model is not available.');
      if (options.createFailsWith) throw domError(options.createFailsWith.name, options.createFailsWith.message);
      const initialPrompts = createOptions.initialPrompts ?? [];
      initialPrompts.forEach((message, index) => {
        if (message.role === 'system' && index !== 0) throw domError('TypeError', 'A system prompt must come first.');
      });
      if (availability !== 'available') {
        const activation = (globalThis.navigator as { userActivation?: { isActive: boolean } } | undefined)?.userActivation;
        if (options.needsUserActivation && !activation?.isActive) {
          throw domError('NotAllowedError', 'Requires a user gesture when availability is "downloadable".');
        }
        await download(createOptions.monitor, createOptions.signal);
      }
      log.creates.push({ initialPrompts, temperature: createOptions.temperature, topK: createOptions.topK });
      if (initialPrompts.reduce((sum, message) => sum + tokens(message.content), 0) > (options.contextWindow ?? 9216)) {
        throw domError('QuotaExceededError', 'The initial prompts are too large.');
      }
      return createSession(initialPrompts);
    },
  };
  Object.assign(globalThis, { LanguageModel, fakeLanguageModelLog: log });
}
