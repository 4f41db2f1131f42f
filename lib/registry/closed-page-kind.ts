/**
 * Why no extension can read a page, where its address says so: a browser page (the new tab page,
 * settings, the extension store, the PDF viewer) stays closed to every extension, and a file from
 * this computer needs the person's permission in the extension's details. Undefined for a web
 * page, which a reload opens to the extension when it was open before the extension came.
 */
export function closedPageKind(url: string): 'browser' | 'file' | undefined {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return undefined;
  }
  if (address.protocol === 'file:') return 'file';
  if (address.protocol !== 'http:' && address.protocol !== 'https:') return 'browser';
  if (storeHosts.includes(address.hostname) || (address.hostname === 'chrome.google.com' && address.pathname.startsWith('/webstore'))) return 'browser';
  return address.pathname.toLowerCase().endsWith('.pdf') ? 'browser' : undefined;
}

const storeHosts = ['chromewebstore.google.com', 'microsoftedge.microsoft.com'];
