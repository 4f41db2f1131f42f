import { cutAndSay } from './cut-and-say';

/**
 * The page a form loaded: its address, its title, and what it says of the form's result (its first
 * JSON-LD block), where it says anything.
 */
export interface PageResult {
  url: string;
  title?: string;
  data?: string;
}

/** The page a call loaded as its page went: `byScript`, a script's tool's call, which the page says nothing of. */
export type LoadedPage = PageResult & { byScript?: true };

/** The most of a result page's data passed on; the rest is cut, and says so. */
export const pageResultCharacters = 8_000;
/** The most of its title passed on. */
export const pageTitleCharacters = 200;

/**
 * The result a form's new page gives, the way WebMCP's declarative explainer proposes: its first
 * `<script type="application/ld+json">`, read once the document is parsed. JSON comes back
 * compact (indentation costs the model tokens); anything else as written. Where there is none, the
 * page's address and title still say where the form went.
 */
export async function readPageResult(): Promise<PageResult> {
  if (document.readyState === 'loading') {
    await new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
  }
  const block = [...document.querySelectorAll('script[type]')].find((script) => script.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json');
  const text = block?.textContent?.trim();
  const title = document.title.replace(/\s+/g, ' ').trim().slice(0, pageTitleCharacters);
  return {
    url: location.href.slice(0, 2_048),
    ...(title ? { title } : {}),
    ...(text ? { data: cutAndSay(compactJson(text), pageResultCharacters) } : {}),
  };
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
