import { describe, expect, it } from 'vitest';
import type { ModelChunk } from '@webmcp-agents/local-agent';
import { streamOpenAiReply } from '@/lib/engines/openai/stream-openai-reply';

/** A server that answers with these events (a stream), or with this body (JSON, where it ignores `stream: true`). */
function serverSending(reply: { events: readonly object[] } | { whole: object }): typeof fetch {
  return async () =>
    'events' in reply
      ? new Response(`${reply.events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`, { headers: { 'content-type': 'text/event-stream' } })
      : new Response(JSON.stringify(reply.whole), { headers: { 'content-type': 'application/json' } });
}

async function chunksOf(server: typeof fetch): Promise<ModelChunk[]> {
  const request = { messages: [{ role: 'user' as const, content: 'find a mug' }], tools: [], signal: new AbortController().signal };
  const chunks: ModelChunk[] = [];
  for await (const chunk of streamOpenAiReply(request, { address: 'http://127.0.0.1:8080/v1', model: 'qwen3:1.7b', temperature: 0, fetch: server })) chunks.push(chunk);
  return chunks;
}

const thought = (reasoning_content: string) => ({ choices: [{ delta: { reasoning_content }, finish_reason: null }] });

describe('thoughts a server sends apart from the reply (llama.cpp, vLLM: `reasoning_content`)', () => {
  it('come as thinking with their words, and the pieces of a call that follows as the model writing, not thinking', async () => {
    const events = [
      thought('The person wants a mug. '),
      thought('I will search.'),
      { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call-1', type: 'function', function: { name: 'search_products', arguments: '' } }] }, finish_reason: null }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"query": ' } }] }, finish_reason: null }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"mug"}' } }] }, finish_reason: null }] },
      { choices: [{ delta: {}, finish_reason: 'tool_calls' }] },
    ];
    const chunks = (await chunksOf(serverSending({ events }))).filter((chunk) => chunk.type !== 'usage');
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'thinking', text: 'The person wants a mug. ' },
      { type: 'thinking', text: 'I will search.' },
    ]);
    // Once the call begins, nothing more reads as thinking: empty pieces, then the call whole at its end.
    expect(chunks.slice(2, 5)).toEqual([
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: '' },
    ]);
    expect(chunks.slice(5)).toEqual([{ type: 'text-delta', text: expect.stringContaining('"search_products"') }]);
  });

  it('come first, with their words, from a server that sends the whole reply at once', async () => {
    const whole = { choices: [{ message: { role: 'assistant', content: 'The enamel mug.', reasoning_content: 'Only one mug is in stock.' }, finish_reason: 'stop' }] };
    const chunks = (await chunksOf(serverSending({ whole }))).filter((chunk) => chunk.type !== 'usage');
    expect(chunks).toEqual([
      { type: 'thinking', text: 'Only one mug is in stock.' },
      { type: 'text-delta', text: 'The enamel mug.' },
    ]);
  });

  it('as Ollama sends them (`reasoning`) come the same way', async () => {
    const events = [{ choices: [{ delta: { content: '', reasoning: 'Mugs.' }, finish_reason: null }] }, { choices: [{ delta: { content: 'Here.' }, finish_reason: 'stop' }] }];
    const chunks = (await chunksOf(serverSending({ events }))).filter((chunk) => chunk.type !== 'usage');
    expect(chunks).toEqual([
      { type: 'thinking', text: 'Mugs.' },
      { type: 'text-delta', text: 'Here.' },
    ]);
  });

  it('make a reply sent whole with thoughts and no content (null) one that thought, not one that cannot be read', async () => {
    const whole = { choices: [{ message: { role: 'assistant', content: null, reasoning_content: 'Which mug?' }, finish_reason: 'stop' }] };
    const chunks = (await chunksOf(serverSending({ whole }))).filter((chunk) => chunk.type !== 'usage');
    expect(chunks).toEqual([{ type: 'thinking', text: 'Which mug?' }]);
  });
});
