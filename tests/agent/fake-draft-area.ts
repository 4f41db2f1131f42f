import type { DraftArea } from '@/lib/agent/stored-drafts';
import { sessionStorageBytes } from '@/lib/text/session-storage-bytes';

/**
 * An in-memory `storage.session` as the drafts use it, counting bytes as Chrome does. `holdReads`
 * keeps every `get` waiting until `releaseReads` (a panel that reads slowly as it opens).
 */
export function createFakeDraftArea() {
  const items = new Map<string, unknown>();
  const sets: Array<Record<string, unknown>> = [];
  let heldReads: Array<() => void> | undefined;
  const area: DraftArea = {
    async get(key) {
      if (heldReads) await new Promise<void>((resolve) => heldReads!.push(resolve));
      return items.has(key) ? { [key]: items.get(key) } : {};
    },
    async set(values) {
      sets.push(values);
      for (const [key, value] of Object.entries(values)) items.set(key, value);
    },
    async remove(key) {
      items.delete(key);
    },
    async getKeys() {
      return [...items.keys()];
    },
    async getBytesInUse(keys) {
      return keys.reduce((sum, key) => sum + (items.has(key) ? sessionStorageBytes({ [key]: items.get(key) }) : 0), 0);
    },
  };
  return {
    area,
    items,
    sets,
    holdReads: () => void (heldReads = []),
    releaseReads: () => {
      const waiting = heldReads ?? [];
      heldReads = undefined;
      waiting.forEach((resolve) => resolve());
    },
  };
}
