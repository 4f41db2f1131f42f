import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

// A scroller this close to its end is at the end (rounding in zoomed layouts leaves a pixel or two).
const atEndPx = 2;
// Scrolled down into this share of a view from the end: back at the end.
const nearEndShare = 0.25;

/**
 * Keeps a scroller at its end while its content grows, until the person scrolls up to read: any
 * move up of their own (a wheel notch, one arrow key) lets go, and reaching the end again follows
 * again, as does End. A change of `followKey` (a new request, another tab) goes back to the end and follows.
 * Returns the refs for the scroller and its content; `newerBelow`, whether `newsKey` changed (new
 * text came) while the person read above, not any growth, such as a section they opened; and
 * `toEnd`, which goes to the end and follows again.
 */
export function useStickToBottom<Scroller extends HTMLElement, Content extends HTMLElement>(followKey?: unknown, newsKey?: unknown) {
  const scroller = useRef<Scroller>(null);
  const content = useRef<Content>(null);
  const pinned = useRef(true);
  const [newerBelow, setNewerBelow] = useState(false);

  useEffect(() => {
    const scrollElement = scroller.current;
    const contentElement = content.current;
    if (!scrollElement || !contentElement) return;
    let lastTop = scrollElement.scrollTop;
    let lastHeight = scrollElement.scrollHeight;
    const onScroll = () => {
      const { scrollTop, scrollHeight, clientHeight } = scrollElement;
      const gap = scrollHeight - scrollTop - clientHeight;
      // Down to the end while a reply streams, the end moves on during the scroll: its last stretch counts.
      if (gap <= atEndPx || (scrollTop > lastTop && gap <= clientHeight * nearEndShare)) {
        pinned.current = true;
        setNewerBelow(false);
      }
      // Up, while the content did not shrink under it: the person's own move.
      else if (scrollTop < lastTop && scrollHeight >= lastHeight) pinned.current = false;
      lastTop = scrollTop;
      lastHeight = scrollHeight;
    };
    scrollElement.addEventListener('scroll', onScroll, { passive: true });
    // End (or Ctrl+End) asks for the end, however fast the reply grows meanwhile: the browser's
    // smooth scroll aims at where the end was, and a block laid out on the way pushes it on.
    // With the focus on the page's body, the browser scrolls the box last clicked in: that is the target.
    let clicked: EventTarget | null = null;
    const onPointerDown = (event: PointerEvent) => {
      clicked = event.target;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'End' || event.defaultPrevented || event.altKey || event.shiftKey || event.metaKey) return;
      const target = event.target === document.body && clicked instanceof Node && document.contains(clicked) ? clicked : event.target;
      if (!scrollsHere(target, scrollElement)) return;
      pinned.current = true;
      setNewerBelow(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => {
      if (pinned.current) scrollElement.scrollTop = scrollElement.scrollHeight;
      lastTop = scrollElement.scrollTop;
      lastHeight = scrollElement.scrollHeight;
    });
    observer?.observe(contentElement);
    return () => {
      scrollElement.removeEventListener('scroll', onScroll);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
      observer?.disconnect();
    };
  }, []);

  const toEnd = useCallback(() => {
    pinned.current = true;
    setNewerBelow(false);
    const scrollElement = scroller.current;
    if (scrollElement) scrollElement.scrollTop = scrollElement.scrollHeight;
  }, []);
  useEffect(toEnd, [followKey]);
  useEffect(() => {
    if (!pinned.current) setNewerBelow(true);
  }, [newsKey]);

  return { scroller, content, newerBelow, toEnd };
}

/**
 * Whether a key pressed at `target` scrolls `scroller`: pressed on it, in it or on the page's body,
 * and not in a field (where End moves the caret) nor in a box that scrolls on its own (a long
 * result, whose own end it goes to).
 */
function scrollsHere(target: EventTarget | null, scroller: HTMLElement): boolean {
  const element = target instanceof Text ? target.parentElement : target;
  if (!(element instanceof HTMLElement)) return false;
  if (element === document.body || element === scroller) return true;
  if (!scroller.contains(element) || element.isContentEditable || element.closest('input, textarea, select')) return false;
  for (let inside: HTMLElement | null = element; inside && inside !== scroller; inside = inside.parentElement) {
    const { overflowY } = getComputedStyle(inside);
    // Rounding leaves a box that does not scroll a pixel or two taller than its view.
    if ((overflowY === 'auto' || overflowY === 'scroll') && inside.scrollHeight - inside.clientHeight > atEndPx) return false;
  }
  return true;
}
