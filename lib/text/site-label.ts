/**
 * The site as a person reads it in a narrow panel: a secure site by its host alone
 * ("shop.example"); any other keeps its scheme, which is worth seeing ("http://127.0.0.1:8080").
 */
export function siteLabel(origin: string): string {
  return origin.startsWith('https://') ? origin.slice('https://'.length) : origin;
}
