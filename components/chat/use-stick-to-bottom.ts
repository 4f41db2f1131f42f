import { useEffect, useRef } from 'preact/hooks';

// Within this distance of the end counts as "following the conversation".
const pinnedDistancePx = 48;

/**
 * Keeps a scroller at its end while its content grows, unless the person scrolled up to read.
 * Returns the refs for the scroller and its content.
 */
export function useStickToBottom<Scroller extends HTMLElement, Content extends HTMLElement>() {
  const scroller = useRef<Scroller>(null);
  const content = useRef<Content>(null);

  useEffect(() => {
    const scrollElement = scroller.current;
    const contentElement = content.current;
    if (!scrollElement || !contentElement) return;
    let pinned = true;
    const onScroll = () => {
      const distance = scrollElement.scrollHeight - scrollElement.scrollTop - scrollElement.clientHeight;
      pinned = distance < pinnedDistancePx;
    };
    scrollElement.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => {
      if (pinned) scrollElement.scrollTop = scrollElement.scrollHeight;
    });
    observer?.observe(contentElement);
    return () => {
      scrollElement.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, []);

  return { scroller, content };
}
