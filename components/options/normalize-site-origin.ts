/**
 * The origin of a site as a person types it ("shop.example", "https://shop.example/cart"), the
 * form the settings keep; undefined for anything that is not an http(s) address.
 */
export function normalizeSiteOrigin(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!url.hostname.includes('.') && url.hostname !== 'localhost') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
