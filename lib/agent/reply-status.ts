import { isTurnOver, type LanguageModel } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { EngineHostParts } from './engine-host-parts';
import { createInlineThoughtWatch } from '../engines/inline-thought-watch';
import { forgetReplyFailures } from './forget-reply-failures';
import { markReplyEnded } from './mark-reply-ended';
import { markReplying } from './mark-replying';
import { waitForReplyTurn } from './wait-for-reply-turn';

/**
 * Wraps a loaded engine so that its replies tell the panels what they do: a tab's reply waits for
 * its turn, waits for the first word, generates, ends or fails, and only that tab's panel hears it, while the shared status
 * says "generating" as long as any tab's reply goes on.
 */
export function createReplyStatus({ shared, runs, news }: EngineHostParts) {
  return (engine: Engine, tabId: number | undefined): Engine => {
    // The model as loaded for this run: a later load (another tab's run) may swap the engine's own.
    const loaded = engine.model;
    const model: LanguageModel = {
      async *stream(request) {
        runs.replyStarts();
        try {
          // The engine takes the turn again, at once (see `createReplyTurns`).
          const turns = engine.replyTurns;
          const passOn = await waitForReplyTurn({ shared, news }, turns, tabId, request.signal);
          if (!passOn) return;
          // Until the first chunk the panel counts the wait: reading a long prompt, or a server loading
          // its model, takes a while. This reply's own wait: a stopped one may end after the next began.
          const wait: { since: number; thinking?: true } = { since: Date.now() };
          if (tabId !== undefined) {
            news.firstWordWaits.set(tabId, wait);
            news.replyBegun.delete(tabId);
          }
          const waiting = () => tabId !== undefined && news.firstWordWaits.get(tabId) === wait;
          const endWait = () => waiting() && news.firstWordWaits.delete(tabId!);
          const heldTurns = markReplying({ shared, news }, turns, tabId);
          const thoughts = createInlineThoughtWatch();
          const silence = watchSilence(tabId, { shared, news });
          try {
            for await (const chunk of loaded.stream(request)) {
              // Thoughts are no word of the reply yet, whether sent apart from it (a server's reasoning)
              // or written into it (`<think>`): the wait goes on, said to be thinking. An empty piece
              // is the model writing what the engine holds to its end (a call sent in pieces, after
              // its thoughts or not): it has begun.
              const start = chunk.type === 'thinking' ? 'thinking' : chunk.type !== 'text-delta' || chunk.text === '' ? 'answering' : thoughts.read(chunk.text);
              if (start === 'thinking' && waiting() && !wait.thinking) {
                wait.thinking = true;
                shared.publishNow();
              } else if (start === 'answering' && endWait()) shared.publishNow();
              // Once the reply has begun, a silence is counted from its last piece.
              if (!waiting()) silence.heard();
              // A stopped reply still streaming may end after the tab's next load: it is not that run's.
              if (tabId !== undefined && !request.signal.aborted && (chunk.type === 'thinking' || (chunk.type === 'text-delta' && chunk.text.trim() !== ''))) {
                news.answering.add(tabId);
                news.replyBegun.add(tabId);
              }
              yield chunk;
            }
            // A reply stopped at the end of the model's own turn ended well; one the person stopped tells nothing.
            if (!request.signal.aborted || isTurnOver(request.signal.reason)) forgetReplyFailures({ shared, news });
          } finally {
            silence.stop();
            endWait();
            news.replying.remove(tabId);
            if (heldTurns) news.turnHolders.delete(heldTurns);
            passOn();
          }
        } finally {
          markReplyEnded({ shared, runs });
        }
      },
    };
    // The engine's other fields are getters that read its state: they stay live through the prototype.
    return Object.create(engine, { model: { value: model } }) as Engine;
  };
}

/** How long a reply that has begun may bring nothing before its tab's panel says so. */
const quietReplyMs = 10_000;

/**
 * Tells `tabId`'s panel when its reply, once begun, has brought nothing for `quietReplyMs` (a
 * server that stalled mid-reply, which its own timeout ends only after a minute), and when
 * something comes again. `heard` each time a piece of it comes; `stop` at its end.
 */
function watchSilence(tabId: number | undefined, { shared, news }: Pick<EngineHostParts, 'shared' | 'news'>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const end = () => {
    clearTimeout(timer);
    if (tabId !== undefined && news.quietReplies.delete(tabId)) shared.publishNow();
  };
  return {
    heard(): void {
      end();
      if (tabId === undefined) return;
      const at = Date.now();
      timer = setTimeout(() => {
        news.quietReplies.set(tabId, at);
        shared.publishNow();
      }, quietReplyMs);
    },
    stop: end,
  };
}
