/** What the browser tells of how a tab's new document came (`webNavigation.onCommitted`). */
export interface NavigationCause {
  transitionType: string;
  transitionQualifiers: readonly string[];
}

/** Ways to a page only the browser's own controls take: the address bar, a bookmark, the start page. */
const throughTheBrowser = new Set(['typed', 'auto_bookmark', 'generated', 'keyword', 'keyword_generated', 'start_page', 'auto_toplevel', 'reload']);

/**
 * Whether the person brought the tab's new document, not the page: they reloaded it, typed an
 * address, picked a bookmark, or went back or forward. A tool's work loads a page as a link or a
 * form does, so such a document is not said to be a call's doing. (A page's script may reload
 * itself or go back, which reads the same: such a tool's page is then said to have reloaded.)
 */
export function navigationByPerson({ transitionType, transitionQualifiers }: NavigationCause): boolean {
  return throughTheBrowser.has(transitionType) || transitionQualifiers.includes('from_address_bar') || transitionQualifiers.includes('forward_back');
}
