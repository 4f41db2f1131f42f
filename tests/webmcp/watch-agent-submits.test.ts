// @vitest-environment happy-dom
import { expect, it, vi } from 'vitest';
import type { ToExtensionMessage } from '@/lib/messaging/bridge-wire';
import { watchAgentSubmits } from '@/lib/webmcp/bridge/watch-agent-submits';

const formResponses = watchAgentSubmits();

/** An end that keeps what the page-world half posts. */
function extensionEnd() {
  const posted: ToExtensionMessage[] = [];
  return { posted, end: { paired: true, post: (message: ToExtensionMessage) => posted.push(message), close: () => {} } };
}

/** Submits a new form as the extension's form reader does, the page's listener given the event. */
function submit(onSubmit: (event: Event & { agentInvoked?: boolean; respondWith?: (result: unknown) => void }) => void): void {
  const form = document.body.appendChild(document.createElement('form'));
  form.addEventListener('submit', onSubmit);
  form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  form.remove();
}

it('gives only the armed submit agentInvoked and respondWith(), and posts the page’s result', async () => {
  const { posted, end } = extensionEnd();
  const seen: Array<boolean | undefined> = [];
  submit((event) => seen.push(event.agentInvoked));
  formResponses.handle('form-arm', 'call-1', end);
  submit((event) => {
    seen.push(event.agentInvoked);
    event.preventDefault();
    event.respondWith!('Booked.');
  });
  formResponses.handle('form-disarm', 'call-1', end);
  expect(seen).toEqual([undefined, true]);
  expect(posted).toEqual([{ type: 'form-pending', callId: 'call-1' }]);
  await vi.waitFor(() => expect(posted.at(-1)).toEqual({ type: 'call-result', callId: 'call-1', result: 'Booked.' }));
});

it('refuses respondWith() before preventDefault(), twice, or after dispatch, as the browser does', () => {
  const { posted, end } = extensionEnd();
  const errors: string[] = [];
  let late: ((result: unknown) => void) | undefined;
  formResponses.handle('form-arm', 'call-2', end);
  submit((event) => {
    late = event.respondWith;
    for (const attempt of [() => event.respondWith!(1), () => (event.preventDefault(), event.respondWith!(2)), () => event.respondWith!(3)]) {
      try {
        attempt();
      } catch (error) {
        errors.push(`${(error as DOMException).name}: ${(error as DOMException).message}`);
      }
    }
  });
  formResponses.handle('form-disarm', 'call-2', end);
  expect(errors).toEqual([
    'InvalidStateError: Call preventDefault() before respondWith().',
    'InvalidStateError: respondWith() was already called for this submit.',
  ]);
  expect(() => late!(4)).toThrow(/while the submit event is dispatched/);
  expect(posted[0]).toEqual({ type: 'form-pending', callId: 'call-2' });
});

it('answers at once that no response came when the page gave none, or the call was not the armed one', () => {
  const { posted, end } = extensionEnd();
  formResponses.handle('form-arm', 'call-3', end);
  submit(() => {});
  formResponses.handle('form-disarm', 'call-3', end);
  formResponses.handle('form-disarm', 'call-4', end);
  expect(posted).toEqual([
    { type: 'form-no-response', callId: 'call-3' },
    { type: 'form-no-response', callId: 'call-4' },
  ]);
});

it('posts a rejected response as the call’s error, its message cut to 2,000 characters', async () => {
  const { posted, end } = extensionEnd();
  formResponses.handle('form-arm', 'call-5', end);
  submit((event) => {
    event.preventDefault();
    event.respondWith!(Promise.reject(new Error(`Sold out. ${'z'.repeat(5_000)}`)));
  });
  formResponses.handle('form-disarm', 'call-5', end);
  await vi.waitFor(() => expect(posted.at(-1)?.type).toBe('call-error'));
  const error = (posted.at(-1) as { error: { name: string; message: string } }).error;
  expect(error.name).toBe('Error');
  expect(error.message.length).toBeLessThanOrEqual(2_000);
  expect(error.message.length).toBeGreaterThan(1_990);
  expect(error.message.startsWith('Sold out. zzz')).toBe(true);
  expect(error.message).toMatch(/\n… \(cut: \d+ of 5010 characters not shown\)$/);
});
