import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

  it('cuts a huge result', async () => {
    const reply = await runToolCall(readerWith(async () => 'x'.repeat(2_000_000)), call('a'), new Map());
    expect(reply.status === 'ok' && reply.result?.length).toBe(1_000_000);
  });
});

describe('timeoutMessage', () => {
  it('names the tool and the time in seconds', () => {
    expect(timeoutMessage('x', 30_000)).toBe('The tool "x" did not answer within 30 s.');
    expect(timeoutMessage('x', 2_500)).toBe('The tool "x" did not answer within 2.5 s.');
  });
});
