/** Title changes are told at most this often: a page flashing "(1) New message" sends no stream of reports. */
const titleChecksMs = 1_000;

/**
 * Calls `onChange` when the page's title changes after it was parsed: a single-page app moving on
 * sets `document.title` without loading a page. The tab's title travels with the top frame's report
 * of tools, and another tab's panel waiting for this tab's run names the tab by it. Only the
 * `<head>` is watched, where pages keep their title, so the page's other changes cost nothing.
 */
export function watchPageTitle(onChange: () => void): void {
  let last = document.title;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new MutationObserver(() => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (document.title === last) return;
      last = document.title;
      onChange();
    }, titleChecksMs);
  });
  const watch = () => {
    last = document.title;
    if (document.head) observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, { once: true });
  else watch();
}
