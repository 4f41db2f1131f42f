/**
 * A page's address as a trace keeps it: without its query string and fragment, and without a user
 * name or password, where addresses carry session tokens, reset codes, `#access_token=` and search
 * terms. Traces outlast the page on disk and travel in exported files; the site and the path are
 * all that showing or replaying a run needs. Text that is no address is cut at its first ? or #.
 * The pages that name a tab by its address (the replay's tab picker, the devtools panel's header)
 * show it so too: a session token would fill the line, and show in a screenshot.
 */
export function traceAddress(url: string): string {
  try {
    const address = new URL(url);
    address.search = '';
    address.hash = '';
    address.username = '';
    address.password = '';
    return address.href;
  } catch {
    return url.replace(/[?#].*$/s, '');
  }
}

/**
 * The site an imported run was on, by its address: a hand-edited file whose `origin` disagrees
 * with its `url` would list the run under one site and show another, and a replay would take it
 * for the other. A web page's is its address's origin; a file's (`file://`) is kept as written; any
 * other address names no site.
 */
export function siteOfTraceAddress(url: string, written: string): string {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return '';
  }
  if (address.protocol === 'http:' || address.protocol === 'https:') return address.origin;
  return address.protocol === 'file:' && written.startsWith('file:') ? written : '';
}
