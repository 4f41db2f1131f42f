// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sendToBackground } from '@/lib/messaging/runtime-messaging';
import { setupPageTools } from '@/lib/webmcp/setup-page-tools';

vi.mock('@/lib/messaging/runtime-messaging', () => ({
  sendToBackground: vi.fn(async () => null),
  handleContentMessages: vi.fn(() => () => {}),
}));
const send = vi.mocked(sendToBackground);

beforeEach(() => {
  send.mockClear();
  document.body.innerHTML = '<form toolname="find_table" tooldescription="Find a free table."><input name="day"></form>';
});

describe('the content script and page lifecycle events', () => {
  it('ignores look-alike pageshow and pagehide events a page dispatches, so a page cannot flood the background', async () => {
    setupPageTools();
    await vi.waitFor(() => expect(send.mock.calls.filter(([type]) => type === 'tools-report')).toHaveLength(1));
    for (let index = 0; index < 200; index += 1) {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
      window.dispatchEvent(new Event('pagehide'));
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(send.mock.calls.map(([type]) => type)).toEqual(['tools-report']);
  });
});
