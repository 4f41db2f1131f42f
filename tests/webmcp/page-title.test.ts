// @vitest-environment happy-dom
import { expect, it, vi } from 'vitest';
import { sendToBackground } from '@/lib/messaging/runtime-messaging';
import { setupPageTools } from '@/lib/webmcp/setup-page-tools';

vi.mock('@/lib/messaging/runtime-messaging', () => ({
  sendToBackground: vi.fn(async () => null),
  handleContentMessages: vi.fn(() => () => {}),
}));
const send = vi.mocked(sendToBackground);

it("reports again, so the browser tells the tab's new title with the tools, however often the page changes it", async () => {
  document.title = 'Table booking';
  document.body.innerHTML = '<form toolname="find_table" tooldescription="Find a free table."><input name="day"></form>';
  setupPageTools();
  const reports = () => send.mock.calls.filter(([type]) => type === 'tools-report').length;
  await vi.waitFor(() => expect(reports()).toBe(1));
  // A single-page app moves on: the tools stay, the title changes, many times in a moment.
  for (const step of ['Choose a day', 'Choose a time', 'Table booking — Your table']) document.title = step;
  await vi.waitFor(() => expect(reports()).toBe(2), { timeout: 3_000 });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(reports()).toBe(2);
});
