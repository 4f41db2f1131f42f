import { isOnThisMachine } from '../text/on-this-machine';

/**
 * The origin of a site as a person types it ("shop.example", "https://shop.example/cart"), the
 * form the settings keep; undefined for anything that is not an http(s) address. Without a scheme,
 * a site on this machine or a bare IP address is taken as http (what local servers speak), any
 * other as https, and a single word ("intranet") is taken for a slip, not a site; with its scheme
 * ("http://intranet:8080", as the side panel sends a page's origin) it is the site it says.
 */
export function normalizeSiteOrigin(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
    const url = withScheme ? new URL(trimmed) : withoutScheme(trimmed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!withScheme && !url.hostname.includes('.') && url.hostname !== 'localhost' && !url.hostname.startsWith('[')) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function withoutScheme(text: string): URL {
  const url = new URL(`https://${text}`);
  return speaksPlainHttp(url.hostname) ? new URL(`http://${text}`) : url;
}

function speaksPlainHttp(hostname: string): boolean {
  return isOnThisMachine(hostname) || hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}
