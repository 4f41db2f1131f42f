/** The origin of an address ("https://shop.example"), or undefined where it is no address at all. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The site a tab's address names, where it is a web page's: a browser page, a file or about:blank
 * names none, whatever origin its document runs with.
 */
export function siteOfAddress(address: string | undefined): string | undefined {
  return address !== undefined && /^https?:/i.test(address) ? originOf(address) : undefined;
}
