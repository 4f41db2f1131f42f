import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { SessionState } from '../agent/session-state';

/**
 * "New chat" and its Undo, as this panel saw them. `pressed`: New chat was pressed here, and
 * `started` once its snapshot offers Undo; only then does the panel say it started a new chat.
 * An offer this panel finds (opened later, back on the tab, another panel's press) stays quiet.
 * `asked`: Undo waits for a snapshot without the offer (one pressed twice asks once); `done`
 * once that snapshot brought the conversation back, for a screen reader to hear.
 */
export type NewChatUndoState = 'none' | 'pressed' | 'started' | 'asked' | 'done';

/** Where the undo of New chat stands once a snapshot of the tab arrived. */
export function undoAfterSnapshot(now: NewChatUndoState, state: SessionState): NewChatUndoState {
  const offered = state.canUndoNewChat === true;
  if (now === 'asked' && !offered) return state.turns.length > 0 ? 'done' : 'none';
  // A snapshot sent before the background cleared the chat still has its turns: a later one answers
  // New chat. One without turns or offer answers a run cut off, with nothing to bring back.
  if (now === 'pressed' && offered) return 'started';
  if (now === 'pressed' && !offered && state.turns.length === 0) return 'none';
  // The offer ended (a request, or Undo, from another panel): a later one was not started here.
  if (now === 'started' && !offered) return 'none';
  return now;
}

/** The panel's part of New chat and its Undo: what it pressed, and what the background answered. */
export function createNewChatUndo() {
  const state = signal<NewChatUndoState>('none');
  return {
    state: state as ReadonlySignal<NewChatUndoState>,
    startedHere: computed(() => state.value === 'started'),
    undone: computed(() => state.value === 'done'),
    /** New chat was pressed here; `sent` when the background was told. */
    pressed(sent: boolean) {
      state.value = sent ? 'pressed' : 'none';
    },
    asked() {
      state.value = 'asked';
    },
    /** Another tab, or a turn of this one: whatever was pressed is over. */
    reset() {
      state.value = 'none';
    },
    /**
     * A worker that stopped may have taken the question (New chat, or Undo) with it: the next
     * snapshot says what came of it, and offers Undo, quietly, if there is one.
     */
    forgetUnanswered() {
      if (state.value === 'asked' || state.value === 'pressed') state.value = 'none';
    },
    followSnapshot(snapshot: SessionState) {
      state.value = undoAfterSnapshot(state.value, snapshot);
    },
  };
}
