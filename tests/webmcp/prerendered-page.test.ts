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

describe('a page loaded ahead of time (prerendered)', () => {
  it('reports nothing from a page loaded ahead of time until the browser shows it; a look-alike event does not count', async () => {
    let prerendering = true;
    Object.defineProperty(document, 'prerendering', { configurable: true, get: () => prerendering });
    let stop = () => {};
    try {
      stop = setupPageTools();
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(send).not.toHaveBeenCalled();

      prerendering = false;
      document.dispatchEvent(new Event('prerenderingchange'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(send).not.toHaveBeenCalled();

      // The browser's own event (trusted, which a page cannot forge).
      const shown = new Event('prerenderingchange');
      Object.defineProperty(shown, 'isTrusted', { value: true });
      document.dispatchEvent(shown);
      await vi.waitFor(() => expect(send.mock.calls.map(([type]) => type)).toEqual(['tools-report']));
    } finally {
      stop();
      Reflect.deleteProperty(document, 'prerendering');
    }
  });
});
