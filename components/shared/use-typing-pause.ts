import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';

/** How long a search waits for the next key before what it narrows follows. */
export const typingPauseMs = 100;

/**
 * A search box whose list follows once typing pauses, so that a run of keys redraws it once, not
 * at every key. `typed` is what the box shows meanwhile (undefined once committed): every key
 * shows at once, none is lost, and the box never goes back to an older text. Give `draft` to keep
 * that text where more than the box can see it (whether to show the box at all may depend on it).
 */
export function useTypingPause(
  commit: (text: string) => void,
  draft?: Signal<string | undefined>,
): { typed: string | undefined; onInput: (text: string) => void } {
  const own = useSignal<string | undefined>(undefined);
  const typed = draft ?? own;
  const pause = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(pause.current), []);
  const onInput = (text: string) => {
    typed.value = text;
    clearTimeout(pause.current);
    pause.current = setTimeout(() => {
      commit(text);
      typed.value = undefined;
    }, typingPauseMs);
  };
  return { typed: typed.value, onInput };
}
