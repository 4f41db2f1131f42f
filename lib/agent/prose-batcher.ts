import type { SessionMessage } from './agent-port-protocol';

type ProseDelta = Extract<SessionMessage, { type: 'prose-delta' }>;

export interface ProseBatcherOptions {
  /** Longest a delta waits for more. Default 30 ms: the panel renders at most every 40 ms anyway. */
  intervalMs?: number;
  /** A batch this long goes out at once. Default 32,000 characters. */
  maxCharacters?: number;
}

interface Batch {
  turnId: string;
  parts: string[];
  characters: number;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Joins a tab's streamed prose deltas into one message per interval, so a fast model (or a
 * replayed 1 MB reply) sends the panel tens of messages a second instead of one per token.
 * Any other message for the tab first sends the prose before it, so the order never changes.
 */
export function createProseBatcher(send: (tabId: number, message: SessionMessage) => void, options: ProseBatcherOptions = {}) {
  const intervalMs = options.intervalMs ?? 30;
  const maxCharacters = options.maxCharacters ?? 32_000;
  const batches = new Map<number, Batch>();

  /** Sends what is waiting for `tabId`, if anything. */
  function flush(tabId: number): void {
    const batch = batches.get(tabId);
    if (!batch) return;
    batches.delete(tabId);
    clearTimeout(batch.timer);
    send(tabId, { type: 'prose-delta', tabId, turnId: batch.turnId, text: batch.parts.join('') });
  }

  function addDelta(tabId: number, delta: ProseDelta): void {
    let batch = batches.get(tabId);
    if (batch && batch.turnId !== delta.turnId) flush(tabId);
    batch = batches.get(tabId);
    if (!batch) {
      batch = { turnId: delta.turnId, parts: [], characters: 0, timer: setTimeout(() => flush(tabId), intervalMs) };
      batches.set(tabId, batch);
    }
    batch.parts.push(delta.text);
    batch.characters += delta.text.length;
    if (batch.characters >= maxCharacters) flush(tabId);
  }

  return {
    flush,
    /** Sends `message` to the tab's panels: prose after a short wait, anything else at once. */
    publish(tabId: number, message: SessionMessage): void {
      if (message.type === 'prose-delta') return addDelta(tabId, message);
      flush(tabId);
      send(tabId, message);
    },
  };
}
