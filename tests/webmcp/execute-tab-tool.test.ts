import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toolCallReplySchema, type ToolCallReply } from '@/lib/messaging/protocol';
import { sendToContent } from '@/lib/messaging/runtime-messaging';
import { executeTabTool } from '@/lib/registry/execute-tab-tool';
import { TabToolRegistry } from '@/lib/registry/tab-tool-registry';

vi.mock('@/lib/messaging/runtime-messaging', () => ({ sendToContent: vi.fn() }));
const send = vi.mocked(sendToContent);

/** What the content script does with a call, as the test decides. */
function contentAnswers(answer: (call: { name: string; args: Record<string, unknown> }) => Promise<ToolCallReply>): void {
  send.mockImplementation(((_tabId: number, type: string, data: { name: string; args: Record<string, unknown> }) =>
    type === 'tool-execute' ? answer(data) : Promise.resolve(null)) as never);
}

let registry: TabToolRegistry;
beforeEach(async () => {
  send.mockReset();
  registry = new TabToolRegistry({ load: async () => new Map(), save: async () => {} });
  const tool = (name: string) => ({ name, description: 'A tool.', inputSchema: { type: 'object' }, origin: '', source: 'native' });
  await registry.report({ tabId: 3, frameId: 9, url: 'https://a.example/frame', origin: 'https://a.example' }, { url: '', tools: [tool('shared'), tool('framed')], dropped: [] });
  await registry.report({ tabId: 3, frameId: 0, url: 'https://a.example/', origin: 'https://a.example' }, { url: '', tools: [tool('shared')], dropped: [] });
});
afterEach(() => vi.useRealTimers());

describe('executeTabTool: a tab’s tool, run in its frame', () => {
  it('runs in the frame that offers the tool, the top frame first', async () => {
    contentAnswers(async () => ({ status: 'ok', result: 'done' }));
    await executeTabTool(registry, 3, 'shared', { a: 1 });
    await executeTabTool(registry, 3, 'framed', {});
    expect(send.mock.calls.map((call) => [call[1], (call[2] as { name: string }).name, call[3]])).toEqual([
      ['tool-execute', 'shared', { frameId: 0 }],
      ['tool-execute', 'framed', { frameId: 9 }],
    ]);
    expect(send.mock.calls[0]?.[2]).toMatchObject({ args: { a: 1 }, timeoutMs: 30_000 });
  });

  it('turns the page’s answer into text: MCP content joined, JSON as given, errors marked', async () => {
    contentAnswers(async ({ name }) =>
      name === 'shared'
        ? { status: 'ok', result: '{"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}' }
        : { status: 'error', error: { name: 'UnknownError', message: 'The weather service is down.' } },
    );
    await expect(executeTabTool(registry, 3, 'shared', {})).resolves.toEqual({ text: 'one\ntwo' });
    await expect(executeTabTool(registry, 3, 'framed', {})).resolves.toEqual({ text: 'The weather service is down.', isError: true });
  });

  it('keeps the length a huge result had before the content script cut it, checked as a count', async () => {
    contentAnswers(async () => ({ status: 'ok', result: 'y'.repeat(1_000), fullLength: 2_457_790 }));
    await expect(executeTabTool(registry, 3, 'shared', {})).resolves.toEqual({ text: 'y'.repeat(1_000), fullLength: 2_457_790 });
    // A reply from before the length was sent reads as before; a length that is no count is refused.
    expect(toolCallReplySchema().safeParse({ status: 'ok', result: 'done' }).success).toBe(true);
    for (const fullLength of [-1, 1.5, '9']) expect(toolCallReplySchema().safeParse({ status: 'ok', result: 'done', fullLength }).success).toBe(false);
  });

  it('says so when the call navigated, or the tool is unknown, or the page is gone', async () => {
    contentAnswers(async () => ({ status: 'ok', result: null }));
    await expect(executeTabTool(registry, 3, 'shared', {})).resolves.toEqual({
      text: 'The page navigated or reloaded while the tool "shared" ran, so no result came back. The tool may have done it (a form that posts does).',
      noAnswer: true,
    });
    await expect(executeTabTool(registry, 3, 'nope', {})).resolves.toEqual({ text: 'The page offers no tool named "nope".', isError: true });
    contentAnswers(() => Promise.reject(new Error('A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received')));
    await expect(executeTabTool(registry, 3, 'shared', {})).resolves.toMatchObject({ text: expect.stringContaining('The page navigated or reloaded while'), noAnswer: true });
    contentAnswers(() => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')));
    await expect(executeTabTool(registry, 3, 'shared', {})).resolves.toEqual({
      text: 'The page that offered "shared" is gone (it navigated or closed).',
      isError: true,
    });
  });

  it('blames the frame, not the page, when a frame’s tool gave no answer: the frame went, the page stayed', async () => {
    const framed = {
      text: 'The frame that offered "framed" navigated, reloaded or was removed while it ran, so no result came back. The tool may have done it (a form that posts does).',
      noAnswer: true,
    };
    contentAnswers(async () => ({ status: 'ok', result: null }));
    await expect(executeTabTool(registry, 3, 'framed', {})).resolves.toEqual(framed);
    contentAnswers(() => Promise.reject(new Error('A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received')));
    await expect(executeTabTool(registry, 3, 'framed', {})).resolves.toEqual(framed);
    contentAnswers(() => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')));
    await expect(executeTabTool(registry, 3, 'framed', {})).resolves.toEqual({ text: 'The frame that offered "framed" is gone (it navigated or was removed).', isError: true });
  });

  it('gives up with a clear message when the frame never answers', async () => {
    vi.useFakeTimers();
    contentAnswers(() => new Promise(() => {}));
    const output = executeTabTool(registry, 3, 'shared', {}, { timeoutMs: 5_000 });
    await vi.advanceTimersByTimeAsync(7_000);
    await expect(output).resolves.toEqual({ text: 'The tool "shared" did not answer within 5 s.', isError: true });
  });

  it('runs a call only in the frame whose tool was chosen, never in another that offers the name by then', async () => {
    contentAnswers(async () => ({ status: 'ok', result: 'done' }));
    // The top frame's "shared" goes away between the model's choice and the call.
    await registry.report({ tabId: 3, frameId: 0, url: 'https://a.example/', origin: 'https://a.example' }, { url: '', tools: [], dropped: [] });
    const output = await executeTabTool(registry, 3, 'shared', {}, { frameId: 0 });
    expect(output).toEqual({ text: 'The page offers no tool named "shared".', isError: true });
    expect(send).not.toHaveBeenCalled();
    await executeTabTool(registry, 3, 'shared', {}, { frameId: 9 });
    expect(send.mock.calls.map((call) => call[3])).toEqual([{ frameId: 9 }]);
  });

  it('runs a call only in the document whose tool was chosen: a frame that holds another one by then runs nothing, and the model is told', async () => {
    contentAnswers(async () => ({ status: 'ok', result: 'charged' }));
    const widget = { tabId: 3, frameId: 9, url: 'https://a.example/widget', origin: 'https://a.example' };
    const step = (description: string, annotations: object) => ({
      url: '',
      tools: [{ name: 'confirm', description, inputSchema: { type: 'object' }, origin: '', source: 'native', annotations }],
      dropped: [],
    });
    await registry.report({ ...widget, documentId: 'step-1' }, step('Show the order summary.', { readOnlyHint: true }));
    const chosen = (await registry.get(3))!.tools.find((tool) => tool.name === 'confirm')!;
    expect(chosen.documentId).toBe('step-1');
    // While the model writes its call (or the person reads the approval card), the frame moves on.
    await registry.documentCommitted(3, 9, Date.now(), 'step-2');
    await registry.report({ ...widget, documentId: 'step-2' }, step('Place the order and charge the card.', { consequentialHint: true }));

    const output = await executeTabTool(registry, 3, 'confirm', {}, { frameId: chosen.frameId, documentId: chosen.documentId! });
    expect(output).toEqual({
      text: 'The page that offered "confirm" changed before the call could run, so nothing was run. Its tools will be listed again: choose from those.',
      isError: true,
    });
    expect(send).not.toHaveBeenCalled();

    // Chosen from the new list, it runs, and the browser is told to deliver it to that document only.
    await expect(executeTabTool(registry, 3, 'confirm', {}, { frameId: 9, documentId: 'step-2' })).resolves.toEqual({ text: 'charged' });
    expect(send.mock.calls.map((call) => [call[1], call[3]])).toEqual([['tool-execute', { frameId: 9, documentId: 'step-2' }]]);
  });

  it('sends nothing when Stop comes while the tool list is read', async () => {
    contentAnswers(async () => ({ status: 'ok', result: 'done' }));
    const controller = new AbortController();
    const output = executeTabTool(registry, 3, 'shared', {}, { signal: controller.signal });
    controller.abort();
    await expect(output).rejects.toMatchObject({ name: 'AbortError' });
    expect(send).not.toHaveBeenCalled();
  });

  it('rejects only on abort, and tells the page to stop', async () => {
    contentAnswers(() => new Promise(() => {}));
    const controller = new AbortController();
    const output = executeTabTool(registry, 3, 'shared', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    controller.abort();
    await expect(output).rejects.toMatchObject({ name: 'AbortError' });
    expect(send.mock.calls[1]?.slice(1)).toEqual(['tool-abort', { callId: (send.mock.calls[0]?.[2] as { callId: string }).callId }, { frameId: 0 }]);
  });
});
