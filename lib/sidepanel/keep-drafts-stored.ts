import { effect, type ReadonlySignal, type Signal } from '@preact/signals';
import type { DraftStorage } from '../agent/stored-drafts';

/**
 * Keeps the request box's text in `storage` under the tab the panel follows, as it changes, so
 * that a panel closed and opened again finds it; and fills an empty box with what was kept for a
 * tab the panel turns to. What is typed before that read comes back wins: a box with text in it is
 * never written over, nor is a kept draft removed before it was read. Returns a function that stops.
 *
 * Turning to another tab changes the tab and the box's text in one batch (the model's actions are
 * batched), so one tab's text is never kept under the other.
 */
export function keepDraftsStored(tabId: ReadonlySignal<number | undefined>, draft: Signal<string>, storage: DraftStorage): () => void {
  // The tabs whose kept draft was read into the box, or typed over: from then on the box is what is kept.
  const settled = new Set<number>();
  const restore = async (id: number): Promise<void> => {
    const kept = await storage.read(id);
    // Typed over meanwhile, or the panel is on another tab now (it reads again on its way back).
    if (settled.has(id) || tabId.peek() !== id) return;
    settled.add(id);
    if (kept !== '') draft.value = kept;
  };
  return effect(() => {
    const id = tabId.value;
    const text = draft.value;
    if (id === undefined) return;
    if (!settled.has(id)) {
      if (text === '') return void restore(id);
      settled.add(id);
    }
    storage.write(id, text);
  });
}
