import { useEffect, useRef, useState } from 'preact/hooks';

const minimumIntervalMs = 40;

/**
 * While `live`, follows `text` at most every 40 ms, and backs off to three times the cost of the
 * last render, so a long reply streamed in tiny pieces never freezes the panel. Once the text is
 * no longer live it is returned as it is.
 */
export function useThrottledText(text: string, live: boolean, lastRenderCostMs: number): string {
  const [shown, setShown] = useState(text);
  const latest = useRef(text);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  latest.current = text;

  useEffect(() => {
    if (!live || text === shown || timer.current !== undefined) return;
    const wait = Math.max(minimumIntervalMs, lastRenderCostMs * 3);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setShown(latest.current);
    }, wait);
  }, [text, live, shown, lastRenderCostMs]);

  useEffect(() => () => clearTimeout(timer.current), []);
  return live ? shown : text;
}
