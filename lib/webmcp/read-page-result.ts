import { cutAndSay } from './cut-and-say';

/**
 * The page a form loaded: its address, its title, what it says of the form's result (its first
 * JSON-LD block), where it says anything, and the HTTP status it came with where that is an error
 * (a form posted to an address the site does not have: 404).
 */
export interface PageResult {
  url: string;
  title?: string;
  data?: string;
  status?: number;
}

/** The page a call loaded as its page went: `byScript`, a script's tool's call, which the page says nothing of. */
export type LoadedPage = PageResult & { byScript?: true };

/** The most of a result page's data passed on; the rest is cut, and says so. */
export const pageResultCharacters = 8_000;
/** The most of its title passed on. */
export const pageTitleCharacters = 200;

/**
 * The result a form's new page gives, the way WebMCP's declarative explainer proposes: its first
 * `<script type="application/ld+json">` that holds data (see `firstResult`), read once the document
 * is parsed. JSON comes back compact (indentation costs the model tokens); anything else as
 * written. Where there is none, the page's address and title still say where the form went.
 */
export async function readPageResult(): Promise<PageResult> {
  if (document.readyState === 'loading') {
    await new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
  }
  const blocks = [...document.querySelectorAll('script[type]')].flatMap((script) => (script.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json' ? [script.textContent?.trim() ?? ''] : []));
  const text = firstResult(blocks);
  const title = document.title.replace(/\s+/g, ' ').trim().slice(0, pageTitleCharacters);
  // The browser gives a navigation's status (0 where it does not tell).
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const status = navigation?.responseStatus ?? 0;
  return {
    url: location.href.slice(0, 2_048),
    ...(title ? { title } : {}),
    ...(text ? { data: cutAndSay(text, pageResultCharacters) } : {}),
    ...(isErrorStatus(status) ? { status } : {}),
  };
}

/** Whether an HTTP status says the request failed: 400 to 599. */
function isErrorStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
}

const statusNames: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error status as a person reads it: "HTTP 404, Not Found". */
export function statusWords(status: number): string {
  const name = statusNames[status];
  return name ? `HTTP ${status}, ${name}` : `HTTP ${status}`;
}

/**
 * The block that says the result: the first that holds a JSON object or list with something in it,
 * compact; a broken or empty block before it (a template's slip, `null`, `{}`) is no result. Where
 * none does, the first with any text, as written. A block past `parsedCharacters` is not parsed.
 */
function firstResult(blocks: readonly string[]): string | undefined {
  for (const block of blocks) {
    if (block.length > parsedCharacters) continue;
    try {
      const value: unknown = JSON.parse(block);
      if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) return JSON.stringify(value);
    } catch {
      // Not JSON: another block may be.
    }
  }
  return blocks.find((block) => block !== '');
}

/** The longest block parsed: 100 times what is passed on, past which a page's block is no form's result. */
const parsedCharacters = 800_000;

