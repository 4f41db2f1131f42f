import { isWholeJson } from '../../text/is-whole-json';

/**
 * Reads a `text/event-stream` body and yields the `data` of each event, as OpenAI-compatible
 * servers (Ollama, LM Studio, llama.cpp) stream chat completions. Comment lines and other fields
 * are skipped; a multi-line `data` is joined with newlines, as the SSE standard says. Some
 * llama.cpp builds send a failure as an `error:` line of JSON: it comes out as `{"error": …}`,
 * the shape other servers use, so the reader of the data sees it. A body with no event at all
 * that is one JSON value (a server or proxy that answered in JSON under the stream's type, an
 * error most often) comes out as one event's data, so that what it says is not lost. `onBytes`
 * hears of every chunk of bytes, comments and unfinished events included: each is a sign the
 * server is still there. `onStrayLine` hears of each line that is no field of the stream's: a body
 * of plain text, or of JSON lines, is no stream at all.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>, onBytes?: () => void, onStrayLine?: () => void): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let events = 0;
  // The start of what is no field of the stream's (see above), kept in case no event comes.
  let stray = '';
  const field = (line: string) => {
    if (line.startsWith('data:')) data.push(fieldValue(line, 'data:'));
    else if (line.startsWith('error:')) data.push(`{"error": ${asJson(fieldValue(line, 'error:'))}}`);
    else if (!/^(?::|event:|id:|retry:)/.test(line)) stray = withStray(stray, line, onStrayLine);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onBytes?.();
      buffer += decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF cut between two chunks: the next tells.
      const heldCr = buffer.endsWith('\r') ? '\r' : '';
      const lines = buffer.slice(0, buffer.length - heldCr.length).split(/\r\n|\r|\n/);
      buffer = (lines.pop() ?? '') + heldCr;
      for (const line of lines) {
        if (data.length && line.startsWith('data:') && startsNextEvent(data, fieldValue(line, 'data:'))) {
          events += 1;
          yield data.join('\n');
          data = [];
        }
        if (line !== '') field(line);
        else if (data.length) {
          events += 1;
          yield data.join('\n');
          data = [];
        }
      }
    }
    if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
    if (buffer !== '') field(buffer);
    if (data.length) yield data.join('\n');
    else if (events === 0 && isJsonObject(stray)) yield stray.trim();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Whether `next`, a `data` line, starts an event of its own though no blank line came before it:
 * it opens a JSON object or is the stream's `[DONE]`, and the data held is a whole JSON value
 * already (joined with it, the two could never be read). Multi-line data that is one value split
 * over its lines, as the standard allows, reads on as one event.
 */
function startsNextEvent(held: string[], next: string): boolean {
  return (next === '[DONE]' || next.trimStart().startsWith('{')) && isWholeJson(held.join('\n'));
}

/** Characters of a body that is not a stream kept to be read as JSON: enough for any error. */
const strayLimit = 16_384;

/** The stray text with `line` added while it is under the limit; `onStrayLine` hears of every line. */
function withStray(stray: string, line: string, onStrayLine: (() => void) | undefined): string {
  onStrayLine?.();
  return stray.length < strayLimit ? `${stray}${line}\n` : stray;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

function fieldValue(line: string, field: string): string {
  const value = line.slice(field.length);
  return value.startsWith(' ') ? value.slice(1) : value;
}

/** The payload as JSON: itself when it already is, else as a string. */
function asJson(payload: string): string {
  return isWholeJson(payload) ? payload : JSON.stringify(payload);
}
