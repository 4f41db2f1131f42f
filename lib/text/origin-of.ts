/** The origin of an address ("https://shop.example"), or undefined where it is no address at all. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
