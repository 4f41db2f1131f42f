import type { ChatMessage } from '@webmcp-agents/chat';
import { storage } from 'wxt/utils/storage';
import { z } from 'zod';
import { noticeFor } from './turn-notices';
import { turnSchema, type Turn } from './session-state';

const storedSessionSchema = z.object({
  turns: z.array(turnSchema),
  history: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
});

export type StoredSession = { turns: Turn[]; history: ChatMessage[] };

/** Conversations live in session storage: they outlive the panel and the service worker, not the browser. */
const sessionsItem = storage.defineItem<Record<string, unknown>>('session:agentSessions', { fallback: {} });

/** Reads every tab's conversation; a run that was going when the worker stopped is marked interrupted. */
export async function loadStoredSessions(now = Date.now()): Promise<Map<number, StoredSession>> {
  const stored = await sessionsItem.getValue();
  const sessions = new Map<number, StoredSession>();
  for (const [key, value] of Object.entries(stored ?? {})) {
    const parsed = storedSessionSchema.safeParse(value);
    if (parsed.success && Number.isInteger(Number(key))) {
      sessions.set(Number(key), { turns: parsed.data.turns.map((turn) => interruptIfRunning(turn, now)), history: parsed.data.history });
    }
  }
  return sessions;
}

export function interruptIfRunning(turn: Turn, now: number): Turn {
  if (turn.outcome) return turn;
  return {
    ...turn,
    outcome: 'interrupted',
    notice: noticeFor('interrupted'),
    endedAt: now,
    items: turn.items.map((item) =>
      item.kind === 'tool' && (item.state === 'running' || item.state === 'waiting')
        ? { ...item, state: 'failed', result: 'Interrupted before it finished.' }
        : item,
    ),
  };
}

/** Writes sessions at most every `delayMs`, and at once when asked to flush. */
export function createSessionWriter(read: () => Map<number, StoredSession>, delayMs = 300) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = async () => {
    timer = undefined;
    await sessionsItem.setValue(Object.fromEntries(read()));
  };
  return {
    schedule() {
      timer ??= setTimeout(() => void write().catch(() => {}), delayMs);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      await write().catch(() => {});
    },
  };
}
