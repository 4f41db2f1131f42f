import { cutAndSay } from './cut-and-say';

/** What a page a form loaded says of the form's result: its first JSON-LD block. */
export interface PageResult {
  url: string;
  data: string;
}

/** The most of a result page's data passed on; the rest is cut, and says so. */
export const pageResultCharacters = 8_000;

/**
 * The result a form's new page gives, the way WebMCP's declarative explainer proposes: its first
 * `<script type="application/ld+json">`, read once the document is parsed. JSON comes back
 * compact (indentation costs the model tokens); anything else as written. Null where there is none.
 */
export async function readPageResult(): Promise<PageResult | null> {
  if (document.readyState === 'loading') {
    await new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
  }
  const block = [...document.querySelectorAll('script[type]')].find((script) => script.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json');
  const text = block?.textContent?.trim();
  if (!text) return null;
  return { url: location.href.slice(0, 2_048), data: cutAndSay(compactJson(text), pageResultCharacters) };
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
