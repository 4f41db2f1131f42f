/**
 * A page's address as a trace keeps it: without its query string and fragment, and without a user
 * name or password, where addresses carry session tokens, reset codes, `#access_token=` and search
 * terms. Traces outlast the page on disk and travel in exported files; the site and the path are
 * all that showing or replaying a run needs. Text that is no address is cut at its first ? or #.
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
