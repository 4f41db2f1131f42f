import { useEffect, useRef, useState } from 'preact/hooks';

const minimumIntervalMs = 40;

/**
 * Most new characters shown in one pass. What is shown is lexed, and lexing a whole 1 MB reply at
 * once would freeze the panel for a third of a second; 16,000 characters take a few milliseconds.
 */
export const maxStepCharacters = 16_000;

/**
 * The part of `text` to show now. While `live`, it follows `text` at most every 40 ms, backing off
 * to three times the cost of the last render, so a long reply streamed in tiny pieces never
 * freezes the panel. Either way it grows by at most `maxStepCharacters` a pass: a finished text
 * that is far ahead follows pass after pass (one per frame), a short one shows at once.
 */
export function useThrottledText(text: string, live: boolean, lastRenderCostMs: number): string {
  // Finished text takes its first step below, at render.
  const [shown, setShown] = useState(() => (live ? nextStep('', text) : ''));
  const latest = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  latest.current = text;
  const visible = live ? shown : nextStep(shown, text);

  useEffect(() => {
    if (!live) {
      // Keeps the step taken; if more is left, the new state renders the next step.
      if (visible !== shown) setShown(visible);
      return;
    }
    if (text === shown || timer.current !== undefined) return;
    const wait = Math.max(minimumIntervalMs, lastRenderCostMs * 3);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setShown((current) => nextStep(current, latest.current));
    }, wait);
  }, [text, live, shown, visible, lastRenderCostMs]);

  useEffect(() => () => clearTimeout(timer.current), []);
  return visible;
}

/** `shown` and at most `maxStepCharacters` more of `text`, cut at a line end where one is near. */
function nextStep(shown: string, text: string): string {
  const from = text.startsWith(shown) ? shown.length : 0;
  if (text.length - from <= maxStepCharacters) return text;
  const limit = from + maxStepCharacters;
  const lineEnd = text.lastIndexOf('\n', limit - 1);
  let end = lineEnd > from ? lineEnd + 1 : limit;
  // Never split a surrogate pair.
  const previous = text.charCodeAt(end - 1);
  if (previous >= 0xd800 && previous <= 0xdbff) end -= 1;
  return text.slice(0, end);
}
