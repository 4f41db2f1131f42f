// What a refusing server said, read apart from the wording built on it: servers put the reason in
// JSON of several shapes, in plain text, or in a web page.
import { isObject } from './is-object';

export interface ErrorBody {
  error?: unknown;
  message?: unknown;
  /** FastAPI's: a sentence, or a list of what was wrong where (`msg`, `loc`). */
  detail?: unknown;
}

/** The first words of an error body (servers put the reason there as JSON or text), and its `error`. */
export async function responseDetail(response: Response): Promise<{ detail: string; error?: unknown }> {
  const { words, error } = readErrorBody(await response.text().catch(() => ''));
  return { detail: words.replace(/\s+/g, ' ').trim().slice(0, 200), error };
}

/**
 * What an error body says, whole: its words (a JSON error's message, FastAPI's detail, a web
 * page's title, or the text as it is), its `error`, and the JSON it was, where it was JSON.
 */
export function readErrorBody(text: string): { words: string; error?: unknown; body: ErrorBody } {
  let body: ErrorBody = {};
  let empty = text.trim() === '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as ErrorBody;
    // `{}`, `[]` or `null` say nothing.
    empty ||= parsed === null || (typeof parsed === 'object' && Object.keys(parsed).length === 0);
  } catch {
    // Not JSON: keep the text.
  }
  const { error } = body;
  const message = typeof error === 'string' ? error : isObject(error) ? error['message'] : (body.message ?? fastApiDetail(body.detail));
  const words = typeof message === 'string' ? message : empty ? '' : (htmlTitle(text) ?? text);
  return { words, error, body };
}

/** FastAPI's detail: its sentence, or its first problem and where ("Extra inputs are not permitted (body.stream_options)"). */
function fastApiDetail(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  const first: unknown = Array.isArray(detail) ? detail[0] : undefined;
  if (!isObject(first) || typeof first['msg'] !== 'string') return undefined;
  const where = Array.isArray(first['loc']) ? first['loc'].join('.') : '';
  return where ? `${first['msg']} (${where})` : first['msg'];
}

/** A web page's title (a proxy's "502 Bad Gateway"), rather than its markup. */
function htmlTitle(text: string): string | undefined {
  if (!/^\s*<(?:!doctype|html|head|body)\b/i.test(text)) return undefined;
  return /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() || 'a web page';
}
