import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toolOutputFromResult } from '@/lib/registry/tool-output-from-result';
import type { PageToolReader } from '@/lib/webmcp/page-tool-reader';
import type { PageToolSource } from '@/lib/webmcp/page-tool-source';
import { abortToolCall, runToolCall, timeoutMessage, type RunningCalls } from '@/lib/webmcp/run-tool-call';

function readerWith(execute: PageToolSource['execute']): Pick<PageToolReader, 'sourceOf'> {
  const source: PageToolSource = { list: async () => ({ offered: [], refused: [] }), watch: () => () => {}, execute };
  return { sourceOf: async (name) => (name === 'missing' ? undefined : source) };
}
const call = (name: string, timeoutMs = 30_000) => ({ callId: `call-${name}`, name, args: { a: 1 }, timeoutMs });

describe('runToolCall: one call in the page', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers with the page’s result, or null when the call navigated', async () => {
    await expect(runToolCall(readerWith(async () => '{"ok":true}'), call('a'), new Map())).resolves.toEqual({ status: 'ok', result: '{"ok":true}' });
    await expect(runToolCall(readerWith(async () => null), call('a'), new Map())).resolves.toEqual({ status: 'ok', result: null });
  });

  it('answers with the error a tool threw, by name and message', async () => {
    const reader = readerWith(async () => {
      throw Object.assign(new Error('Out of stock.'), { name: 'UnknownError' });
    });
    await expect(runToolCall(reader, call('a'), new Map())).resolves.toEqual({ status: 'error', error: { name: 'UnknownError', message: 'Out of stock.' } });
  });

  it('keeps the words of a thrown value that is not an Error: a number as it reads, a plain object as JSON', async () => {
    const thrownAs = async (thrown: unknown) => {
      const reader = readerWith(async () => {
        throw thrown;
      });
      return runToolCall(reader, call('buy'), new Map());
    };
    await expect(thrownAs(404)).resolves.toEqual({ status: 'error', error: { name: 'Error', message: '404' } });
    await expect(thrownAs({ error: 'Out of stock', code: 409 })).resolves.toEqual({
      status: 'error',
      error: { name: 'Error', message: '{"error":"Out of stock","code":409}' },
    });
    await expect(thrownAs({ name: 'StockError', message: 'Out of stock.' })).resolves.toEqual({ status: 'error', error: { name: 'StockError', message: 'Out of stock.' } });
    // A huge object is cut like any long message.
    const reply = await thrownAs({ items: Array.from({ length: 1_000 }, (_, index) => `item-${index}`) });
    const message = reply.status === 'error' ? reply.error.message : '';
    expect(message.startsWith('{"items":["item-0","item-1"')).toBe(true);
    expect(message.length).toBeLessThanOrEqual(2_000);
    expect(message).toMatch(/\n… \(cut: \d+ of \d+ characters not shown\)$/);
    // An object that is not JSON says what String says of it, and one that says nothing still answers.
    const cyclic: Record<string, unknown> = { error: 'loop' };
    cyclic.self = cyclic;
    await expect(thrownAs(cyclic)).resolves.toEqual({ status: 'error', error: { name: 'Error', message: '[object Object]' } });
    await expect(thrownAs(Object.create(null))).resolves.toEqual({ status: 'error', error: { name: 'Error', message: 'Unknown error' } });
  });

  it('says when the page offers no such tool', async () => {
    await expect(runToolCall(readerWith(async () => 'x'), call('missing'), new Map())).resolves.toEqual({
      status: 'error',
      error: { name: 'NotFoundError', message: 'The page offers no tool named "missing".' },
    });
  });

  it('times out after 30 s with a clear message, aborting the page’s signal', async () => {
    let pageSignal: AbortSignal | undefined;
    const reader = readerWith((_name, _args, signal) => {
      pageSignal = signal;
      return new Promise(() => {});
    });
    const reply = runToolCall(reader, call('never_answers'), new Map());
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(reply).resolves.toEqual({
      status: 'error',
      error: { name: 'TimeoutError', message: 'The tool "never_answers" did not answer within 30 s.' },
    });
    expect(pageSignal?.aborted).toBe(true);
  });

  it('stops a call when the background aborts it', async () => {
    const running: RunningCalls = new Map();
    const reader = readerWith((_name, _args, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('page saw the abort')))));
    const reply = runToolCall(reader, call('slow'), running);
    await vi.advanceTimersByTimeAsync(10);
    abortToolCall(running, 'call-slow');
    await expect(reply).resolves.toEqual({ status: 'error', error: { name: 'AbortError', message: 'The call was stopped.' } });
    expect(running.size).toBe(0);
  });

  it('cuts a huge result to 1,000,000 characters, says how many of how many were cut, and carries the whole length', async () => {
    const reply = await runToolCall(readerWith(async () => 'y'.repeat(10_000_000)), call('read'), new Map());
    expect(reply).toMatchObject({ status: 'ok', fullLength: 10_000_000 });
    const output = toolOutputFromResult('read', reply.status === 'ok' ? reply.result : null, reply.status === 'ok' ? reply.fullLength : undefined);
    expect(output.fullLength).toBe(10_000_000);
    const kept = output.text.indexOf('\n');
    expect(output.text.length).toBeLessThanOrEqual(1_000_000);
    expect(kept).toBeGreaterThan(999_900);
    expect(output.text.slice(kept)).toBe(`\n… (cut: ${10_000_000 - kept} of 10000000 characters not shown)`);
  });

  it('reads a huge MCP-style result before cutting it: the text is cut, not the JSON, and isError stays', async () => {
    const page = JSON.stringify({ content: [{ type: 'text', text: `Payment failed: ${'x'.repeat(1_100_000)}` }], isError: true });
    const reply = await runToolCall(readerWith(async () => page), call('pay'), new Map());
    // The length of the text the model would read, not of the JSON around it.
    expect(reply).toMatchObject({ status: 'ok', fullLength: 1_100_016 });
    const output = toolOutputFromResult('pay', reply.status === 'ok' ? reply.result : null, reply.status === 'ok' ? reply.fullLength : undefined);
    expect(output.fullLength).toBe(1_100_016);
    const kept = output.text.indexOf('\n');
    expect(output.isError).toBe(true);
    expect(output.text.startsWith('Payment failed: xxx')).toBe(true);
    expect(output.text.slice(kept)).toBe(`\n… (cut: ${1_100_016 - kept} of 1100016 characters not shown)`);
  });

  it('says it left out a huge MCP-style result\'s structuredContent to carry its text', async () => {
    const orders = Array.from({ length: 30_000 }, (_, index) => ({ id: `order-${index}`, total: index, note: 'x'.repeat(20) }));
    const page = JSON.stringify({ content: [{ type: 'text', text: 'Your orders.' }], structuredContent: { orders } });
    expect(page.length).toBeGreaterThan(1_000_000);
    const reply = await runToolCall(readerWith(async () => page), call('list_orders'), new Map());
    // The text came whole, so no length of a cut: only the word that structuredContent is missing.
    expect(reply).toEqual({ status: 'ok', result: '{"content":[{"type":"text","text":"Your orders."}]}', structuredContentDropped: true });
    // A result that fits keeps its structuredContent, and has nothing to say.
    const small = JSON.stringify({ content: [{ type: 'text', text: 'Your orders.' }], structuredContent: { orders: [] } });
    expect(await runToolCall(readerWith(async () => small), call('list_orders'), new Map())).toEqual({ status: 'ok', result: small });
  });

  it('cuts a long error message to 2,000 characters, and says so', async () => {
    const reader = readerWith(async () => {
      throw new Error(`Card declined. ${'z'.repeat(4_985)}`);
    });
    const reply = await runToolCall(reader, call('pay'), new Map());
    const message = reply.status === 'error' ? reply.error.message : '';
    const kept = message.indexOf('\n');
    expect(message.length).toBeLessThanOrEqual(2_000);
    expect(message.startsWith('Card declined. zzz')).toBe(true);
    expect(message.slice(kept)).toBe(`\n… (cut: ${5_000 - kept} of 5000 characters not shown)`);
  });
});

describe('timeoutMessage', () => {
  it('names the tool and the time in seconds', () => {
    expect(timeoutMessage('x', 30_000)).toBe('The tool "x" did not answer within 30 s.');
    expect(timeoutMessage('x', 2_500)).toBe('The tool "x" did not answer within 2.5 s.');
  });
});
