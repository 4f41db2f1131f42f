import { useEffect, useRef, useState } from 'preact/hooks';

/** Long enough for a screen reader to have begun what it was given, which clearing it does not stop. */
const announcementKeptMs = 7_000;

/**
 * The words for an off-screen live region that says what the page also shows: each saying stands
 * for `announcementKeptMs`, then goes, so that a screen reader reading the page afterwards hears it
 * once (where it shows), not twice. A saying is a change of `key`, by default of the text: the
 * same words said again after others (a second replay's same result) stand again.
 */
export function useSaidOnce(text: string, key?: number): string {
  const changes = useRef({ text, count: 0 });
  if (key === undefined && text !== changes.current.text) changes.current = { text, count: changes.current.count + 1 };
  const saying = key ?? changes.current.count;
  const [spoken, setSpoken] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!text) return undefined;
    const timer = setTimeout(() => setSpoken(saying), announcementKeptMs);
    return () => clearTimeout(timer);
  }, [saying, text]);
  return spoken === saying ? '' : text;
}
