import { useEffect, useState } from 'preact/hooks';

/** Long enough for a screen reader to have begun what it was given, which clearing it does not stop. */
export const announcementKeptMs = 7_000;

/**
 * The words for an off-screen live region that says what the page also shows: each new text
 * stands for `announcementKeptMs`, then goes, so that a screen reader reading the page afterwards
 * hears it once (where it shows), not twice.
 */
export function useSaidOnce(text: string): string {
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    if (!text) return undefined;
    const timer = setTimeout(() => setSpoken(text), announcementKeptMs);
    return () => clearTimeout(timer);
  }, [text]);
  return spoken === text ? '' : text;
}
