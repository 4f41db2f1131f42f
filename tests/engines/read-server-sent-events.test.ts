import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from '../../lib/engines/openai/read-server-sent-events';

function bodyOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function events(pieces: string[]): Promise<string[]> {
  const found: string[] = [];
  for await (const data of readServerSentEvents(bodyOf(pieces))) found.push(data);
  return found;
}

describe('reading server-sent events', () => {
  it('yields each event\'s data, whatever way the bytes were cut', async () => {
    const stream = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    expect(await events([stream])).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
    expect(await events(stream.split(''))).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('reads CRLF line ends, comments, other fields, multi-line data and a last event without a blank line', async () => {
    const stream = ': keep-alive\r\nevent: message\r\ndata: one\r\ndata: two\r\n\r\nid: 7\ndata:three';
    expect(await events([stream])).toEqual(['one\ntwo', 'three']);
  });

  it('reads one event when a CRLF is cut between two chunks, wherever the cut falls', async () => {
    expect(await events(['data: {"a":\r', '\ndata: 1}\r\n\r\n'])).toEqual(['{"a":\n1}']);
    const stream = 'data: one\r\ndata: two\r\n\r\ndata: three\r\n\r\n';
    expect(await events(stream.split(''))).toEqual(['one\ntwo', 'three']);
    expect(await events(['data: one\r\ndata: two\r'])).toEqual(['one\ntwo']);
  });

  it('turns an `error:` line into error data, as other servers send it', async () => {
    expect(await events(['error: {"code":400,"message":"too long"}\n\ndata: [DONE]\n\n'])).toEqual(['{"error": {"code":400,"message":"too long"}}', '[DONE]']);
    expect(await events(['error: plain words\n\n'])).toEqual(['{"error": "plain words"}']);
  });

  it('reads an error line that ends the body, and a body of plain JSON with no event at all, so a server\'s words are not lost', async () => {
    expect(await events(['error: {"message":"the model crashed"}'])).toEqual(['{"error": {"message":"the model crashed"}}']);
    const json = JSON.stringify({ error: { message: 'model runner has unexpectedly stopped' } }, null, 2);
    expect(await events([json.slice(0, 10), json.slice(10)])).toEqual([json]);
    // Plain text is no event; nor is JSON beside events, which a stream's readers take as they come.
    expect(await events(['Internal Server Error\n'])).toEqual([]);
    expect(await events(['{"stray": true}\ndata: one\n\n'])).toEqual(['one']);
  });

  it('tells of each line that is no field of the stream, so that a body of plain text or JSON lines is known for no stream', async () => {
    const strayLines = async (pieces: string[]) => {
      let count = 0;
      for await (const _data of readServerSentEvents(bodyOf(pieces), undefined, () => (count += 1))) void _data;
      return count;
    };
    expect(await strayLines(['404 page not found'])).toBe(1);
    expect(await strayLines(['{"message":{"content":"Hi"},"done":false}\n{"message":{"content":""},"done":true}\n'])).toBe(2);
    expect(await strayLines([': keep-alive\nevent: message\nid: 1\nretry: 10\ndata: {"a":1}\n\n'])).toBe(0);
  });

  it('reads the events of a server that parts them by one line break, each as it comes, not as one event no one can read', async () => {
    const chunk = (text: string) => JSON.stringify({ choices: [{ delta: { content: text } }] });
    const stream = `data: ${chunk('Two ')}\ndata: ${chunk('mugs')}\ndata: [DONE]\n`;
    expect(await events([stream])).toEqual([chunk('Two '), chunk('mugs'), '[DONE]']);
    expect(await events(stream.split(''))).toEqual([chunk('Two '), chunk('mugs'), '[DONE]']);
    // Each event comes out once the next begins, without waiting for the body to end.
    let send!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => (send = (text) => controller.enqueue(new TextEncoder().encode(text))) });
    const reader = readServerSentEvents(body);
    send(`data: ${chunk('Two ')}\ndata: ${chunk('mugs')}\n`);
    expect((await reader.next()).value).toBe(chunk('Two '));
    await reader.return(undefined);
    // Data that is one value over its lines, or that is no JSON, still reads as one event.
    expect(await events(['data: {"a":\ndata: {"b":1}}\n\n'])).toEqual(['{"a":\n{"b":1}}']);
    expect(await events(['data: one\ndata: {"b":1}\n\n'])).toEqual(['one\n{"b":1}']);
  });

  it('decodes characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: café ✓\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const found: string[] = [];
    for await (const data of readServerSentEvents(body)) found.push(data);
    expect(found).toEqual(['café ✓']);
  });

  it('tells of every chunk of bytes, keep-alive comments and unfinished events included, so a timer can see the server is there', async () => {
    let chunks = 0;
    const found: string[] = [];
    for await (const data of readServerSentEvents(bodyOf([': keep-alive\n', ': keep-alive\n', 'data: {"a"', ':1}\n\n']), () => (chunks += 1))) found.push(data);
    expect(found).toEqual(['{"a":1}']);
    expect(chunks).toBe(4);
  });
});
