// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleContentMessages, sendToBackground } from '@/lib/messaging/runtime-messaging';
import { setupPageTools } from '@/lib/webmcp/setup-page-tools';

vi.mock('@/lib/messaging/runtime-messaging', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/messaging/runtime-messaging')>()),
  sendToBackground: vi.fn(async () => null),
  handleContentMessages: vi.fn(() => () => {}),
}));
const send = vi.mocked(sendToBackground);

// Each test's content script stops reading the page before the next test, or the page goes away.
let stop = () => {};
afterEach(() => stop());

beforeEach(() => {
  send.mockClear();
  document.body.innerHTML = '<form toolname="find_table" tooldescription="Find a free table."><input name="day"></form>';
});

describe('the content script and page lifecycle events', () => {
  it('ignores look-alike pageshow and pagehide events a page dispatches, so a page cannot flood the background', async () => {
    stop = setupPageTools();
    await vi.waitFor(() => expect(send.mock.calls.filter(([type]) => type === 'tools-report')).toHaveLength(1));
    for (let index = 0; index < 200; index += 1) {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
      window.dispatchEvent(new Event('pagehide'));
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(send.mock.calls.map(([type]) => type)).toEqual(['tools-report']);
  });
});

describe('a content script whose extension went away (reloaded or updated)', () => {
  it('stops answering and reporting at the first send that says so, and reads the page no more', async () => {
    const stopAnswering = vi.fn();
    vi.mocked(handleContentMessages).mockReturnValueOnce(stopAnswering);
    send.mockRejectedValueOnce(new Error('Extension context invalidated.'));
    const read = vi.spyOn(document, 'querySelectorAll');
    stop = setupPageTools();
    await vi.waitFor(() => expect(stopAnswering).toHaveBeenCalledOnce());
    const readsWhenStopped = read.mock.calls.length;
    document.body.insertAdjacentHTML('beforeend', '<form toolname="book_table" tooldescription="Book a table."><input name="day"></form>');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(send).toHaveBeenCalledOnce();
    expect(read.mock.calls.length).toBe(readsWhenStopped);
    read.mockRestore();
  });
});

describe('a content script whose send the background refused', () => {
  it('goes on reporting: only a gone extension stops it', async () => {
    const stopAnswering = vi.fn();
    vi.mocked(handleContentMessages).mockReturnValueOnce(stopAnswering);
    send.mockRejectedValueOnce(Object.assign(new Error('No such frame.'), { name: 'NotFoundError' }));
    stop = setupPageTools();
    await vi.waitFor(() => expect(send).toHaveBeenCalledOnce());
    document.body.insertAdjacentHTML('beforeend', '<form toolname="book_table" tooldescription="Book a table."><input name="day"></form>');
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(stopAnswering).not.toHaveBeenCalled();
  });
});

/** The names in the frame's last report to the background. */
function lastReported(): string[] {
  const report = send.mock.calls.filter(([type]) => type === 'tools-report').at(-1)?.[1] as { tools: Array<{ name: string }> } | undefined;
  return (report?.tools ?? []).map((tool) => tool.name).sort();
}

describe("the background's request for a frame's tools", () => {
  it('reports what the frame knows; only a panel turning to the tab (lookAgain) makes it walk the page for what no event announced', async () => {
    document.body.insertAdjacentHTML('beforeend', '<div id="plain"></div>');
    stop = setupPageTools();
    await vi.waitFor(() => expect(lastReported()).toEqual(['find_table']));
    const handlers = vi.mocked(handleContentMessages).mock.calls.at(-1)![0];
    // A script gives a plain element a shadow root with a form: nothing in the document changes.
    document.getElementById('plain')!.attachShadow({ mode: 'open' }).innerHTML =
      '<form toolname="buy_gift_card" tooldescription="Buy a gift card."><input name="amount"></form>';

    const reports = () => send.mock.calls.filter(([type]) => type === 'tools-report').length;
    const before = reports();
    await handlers['tools-request']!({}, {} as never);
    await vi.waitFor(() => expect(reports()).toBeGreaterThan(before));
    expect(lastReported()).toEqual(['find_table']);

    await handlers['tools-request']!({ lookAgain: true }, {} as never);
    await vi.waitFor(() => expect(lastReported()).toEqual(['buy_gift_card', 'find_table']));
  });
});
