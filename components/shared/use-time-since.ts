import { useEffect, useState } from 'preact/hooks';

/** Milliseconds since `since`, brought up to date every second while shown. */
export function useTimeSince(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [since]);
  return Math.max(0, now - since);
}

/** "12 s", "2 min 5 s": a count that goes up each second, so no tenths. */
export function formatWait(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1_000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
