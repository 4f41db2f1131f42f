/**
 * Reads a `text/event-stream` body and yields the `data` of each event, as OpenAI-compatible
 * servers (Ollama, LM Studio, llama.cpp) stream chat completions. Comment lines and other fields
 * are skipped; a multi-line `data` is joined with newlines, as the SSE standard says. Some
 * llama.cpp builds send a failure as an `error:` line of JSON: it comes out as `{"error": …}`,
 * the shape other servers use, so the reader of the data sees it. `onBytes` hears of every chunk
 * of bytes, comments and unfinished events included: each is a sign the server is still there.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>, onBytes?: () => void): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
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
        if (line === '') {
          if (data.length) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(fieldValue(line, 'data:'));
        } else if (line.startsWith('error:')) {
          data.push(`{"error": ${asJson(fieldValue(line, 'error:'))}}`);
        }
      }
    }
    if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
    if (buffer.startsWith('data:')) data.push(fieldValue(buffer, 'data:'));
    if (data.length) yield data.join('\n');
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function fieldValue(line: string, field: string): string {
  const value = line.slice(field.length);
  return value.startsWith(' ') ? value.slice(1) : value;
}

/** The payload as JSON: itself when it already is, else as a string. */
function asJson(payload: string): string {
  try {
    JSON.parse(payload);
    return payload;
  } catch {
    return JSON.stringify(payload);
  }
}
