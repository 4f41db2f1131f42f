import { isOnThisMachine } from '../text/on-this-machine';

/**
 * The origin of a site as a person types it ("shop.example", "https://shop.example/cart"), the
 * form the settings keep; undefined for anything that is not an http(s) address. Without a scheme,
 * a site on this machine, a bare IP address or port 80 is taken as http (what local servers speak), any
 * other as https, and a single word ("intranet") is taken for a slip, not a site; with its scheme
 * ("http://intranet:8080", as the side panel sends a page's origin) it is the site it says.
 *
 * A leading dot (".bank.example", the usual way to write "the domain and its subdomains") and a
 * trailing one ("bank.example.", the same host to Chrome) are dropped: kept, the entry would match
 * no page, and on the list where the agent is off a miss is the harmful mistake. Any other host no
 * site can have (a pasted list, a quote, an empty label) is refused.
 */
export function normalizeSiteOrigin(text: string): string | undefined {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  // The URL parser drops tabs and line breaks inside a host: "a.example\tb.example" would pass as
  // one site. Past the host, a space is part of a pasted page's address ("…/My files/").
  // (The URL parser reads a backslash as a slash in a web address, and skips slashes before the host.)
  const host = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[/\\]+/, '').split(/[/\\?#]/, 1)[0] ?? '';
  if (!host || /\s/.test(host)) return undefined;
  try {
    const url = withScheme ? new URL(trimmed) : withoutScheme(trimmed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const hostname = url.hostname.replace(/^\./, '').replace(/\.$/, '');
    if (!isSiteHost(hostname)) return undefined;
    // Port 0 is no port a page is served from (Chrome refuses to connect to it).
    if (url.port === '0') return undefined;
    if (!withScheme && !hostname.includes('.') && hostname !== 'localhost' && !hostname.startsWith('[')) return undefined;
    url.hostname = hostname;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * A host a site can have, as the URL parser writes it (lower case, an IDN as punycode, an IPv4
 * address as four numbers): labels of letters, digits and hyphens (and underscores, which Chrome
 * loads and the side panel may send), or an IPv6 address in brackets.
 */
function isSiteHost(hostname: string): boolean {
  if (/^\[[0-9a-f:.]+\]$/.test(hostname)) return true;
  return hostname.length <= 253 && /^([a-z0-9_-]{1,63}\.)*[a-z0-9_-]{1,63}$/.test(hostname);
}

function withoutScheme(text: string): URL {
  const url = new URL(`https://${text}`);
  // Port 80 is plain http's own, as 443 is https's: "shop.example:80" means the http site.
  return speaksPlainHttp(url.hostname) || url.port === '80' ? new URL(`http://${text}`) : url;
}

/** This computer, or a device on the network by its address: where servers speak plain http, on ports of their own. */
export function speaksPlainHttp(hostname: string): boolean {
  return isOnThisMachine(hostname) || hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}
