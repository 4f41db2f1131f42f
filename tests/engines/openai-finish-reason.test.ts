import { describe, expect, it } from 'vitest';
import { streamOpenAiReply } from '@/lib/engines/openai/stream-openai-reply';

/** A server's event stream whose connection breaks after its last event. */
function brokenStream(events: readonly string[]): typeof fetch {
  return async () => {
    const queue = [...events];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const event = queue.shift();
        if (event === undefined) controller.error(new TypeError('network error'));
        else controller.enqueue(new TextEncoder().encode(`data: ${event}\n\n`));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

async function read(events: readonly string[]): Promise<Error & { code?: string }> {
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal: new AbortController().signal };
  try {
    for await (const _chunk of streamOpenAiReply(request, { address: 'http://localhost:11434/v1', model: 'm', temperature: 0, fetch: brokenStream(events) }));
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('the reply did not fail');
}

const delta = (content: string, finish: string | null = null) => JSON.stringify({ choices: [{ delta: { content }, finish_reason: finish }] });

describe('a server reply whose connection breaks', () => {
  it('is cut off where the server last said it reached its length limit', async () => {
    expect(await read([delta('Hello'), delta(' world', 'length')])).toMatchObject({ code: 'reply-cut-off' });
  });

  it('broke in the middle where text came after a finish reason: the reply went on', async () => {
    const error = await read([delta('Hello', 'length'), delta(' world'), delta(' and more')]);
    expect(error.code).not.toBe('reply-cut-off');
    expect(error.message).toMatch(/broke in the middle of a reply/);
  });
});
