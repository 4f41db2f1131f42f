import { describe, expect, it, vi } from 'vitest';

const asked = vi.hoisted(() => ({ answer: (): Promise<unknown> => Promise.resolve(undefined) }));
vi.mock('@/lib/messaging/extension-page-requests', () => ({ askBackgroundFromPage: () => asked.answer() }));
import { extensionTraceTransport } from '@/lib/traces/extension-trace-transport';

describe("the trace viewer's way to the background", () => {
  it('says the extension did not answer where the worker stopped while it answered, not Chrome\'s words for its channel', async () => {
    asked.answer = () => Promise.reject(new Error('A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received'));
    expect(await extensionTraceTransport().request({ type: 'traces-list' })).toEqual({
      ok: false,
      error: { name: 'NoReplyError', message: 'The extension did not answer; reload the page and try again.' },
    });
  });

  it('lets any other failure through', async () => {
    asked.answer = () => Promise.reject(new Error('Extension context invalidated.'));
    await expect(extensionTraceTransport().request({ type: 'traces-list' })).rejects.toThrow('Extension context invalidated.');
  });
});
