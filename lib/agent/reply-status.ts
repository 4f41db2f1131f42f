import { isTurnOver, type LanguageModel } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { ReplyTurns } from '../engines/reply-turns';
import type { EngineHostParts } from './engine-host-parts';

/**
 * Wraps a loaded engine so that its replies tell the panels what they do: a tab's reply waits for
 * its turn, generates, ends or fails, and only that tab's panel hears it, while the shared status
 * says "generating" as long as any tab's reply goes on.
 */
export function createReplyStatus({ shared, runs, news }: EngineHostParts) {
  /** The engine answers again: what a reply before said of it no longer holds. */
  const forgetReplyFailures = (): void => {
    if (news.replyFailures.size === 0) return;
    news.replyFailures.clear();
    shared.publishNow();
  };

  /** Takes the reply's turn, telling `tabId`'s panel while it waits for another tab's; undefined where stopped meanwhile. */
  const waitForTurn = async (turns: ReplyTurns | undefined, tabId: number | undefined, signal: AbortSignal): Promise<(() => void) | undefined> => {
    if (!turns) return () => {};
    if (tabId === undefined || !turns.busy) return turns.take(signal);
    news.waitingForTurn.add(tabId);
    news.turnsWaitedFor.set(tabId, turns);
    shared.publishNow();
    try {
      return await turns.take(signal);
    } finally {
      news.waitingForTurn.remove(tabId);
      if (!news.waitingForTurn.has(tabId)) news.turnsWaitedFor.delete(tabId);
    }
  };

  return (engine: Engine, tabId: number | undefined): Engine => {
    // The model as loaded for this run: a later load (another tab's run) may swap the engine's own.
    const loaded = engine.model;
    const model: LanguageModel = {
      async *stream(request) {
        runs.replyStarts();
        try {
          // The engine takes the turn again, at once (see `createReplyTurns`).
          const turns = engine.replyTurns;
          const passOn = await waitForTurn(turns, tabId, request.signal);
          if (!passOn) return;
          // The tab that has the turn, for the panels of the tabs waiting for it.
          const holdsTurn = turns !== undefined && tabId !== undefined && !news.turnHolders.has(turns);
          if (holdsTurn) news.turnHolders.set(turns, tabId);
          news.replying.add(tabId);
          // Generating already for another tab: this tab's panel is told all the same.
          if (shared.status.state === 'ready') shared.update({ state: 'generating' });
          else shared.publishNow();
          try {
            yield* loaded.stream(request);
            // A reply stopped at the end of the model's own turn ended well; one the person stopped tells nothing.
            if (!request.signal.aborted || isTurnOver(request.signal.reason)) forgetReplyFailures();
          } finally {
            news.replying.remove(tabId);
            if (holdsTurn) news.turnHolders.delete(turns);
            passOn();
          }
        } finally {
          runs.replyEnds();
          // The tab's panel hears that its reply ended, or its wait did (a Stop), whatever the others do.
          if (!runs.replying && shared.status.state === 'generating') shared.update({ state: 'ready' });
          else shared.publishNow();
          runs.settle();
        }
      },
    };
    // The engine's other fields are getters that read its state: they stay live through the prototype.
    return Object.create(engine, { model: { value: model } }) as Engine;
  };
}
