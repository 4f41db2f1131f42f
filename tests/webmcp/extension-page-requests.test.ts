import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { answerExtensionPages } from '@/lib/messaging/extension-page-requests';

beforeEach(() => fakeBrowser.reset());

const fromOptions = () => ({ id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/options.html') });

describe('the background answering its own pages', () => {
  it('answers a request whose answer failed, with nothing, rather than leave the page waiting', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerExtensionPages(
      () => true,
      async () => {
        throw new Error('the store broke');
      },
      { refused: true },
    );
    const answers: unknown[] = [];
    await fakeBrowser.runtime.onMessage.trigger({ type: 'x' }, fromOptions(), (answer: unknown) => answers.push(answer));
    await vi.waitFor(() => expect(answers).toEqual([undefined]));
    expect(logged).toHaveBeenCalledWith('An extension page’s request failed:', expect.any(Error));
    logged.mockRestore();
  });

  it('answers its own pages, and refuses a web page', async () => {
    answerExtensionPages(() => true, async () => ({ ok: true }), { refused: true });
    const answers: unknown[] = [];
    await fakeBrowser.runtime.onMessage.trigger({ type: 'x' }, fromOptions(), (answer: unknown) => answers.push(answer));
    await fakeBrowser.runtime.onMessage.trigger({ type: 'x' }, { id: fakeBrowser.runtime.id, url: 'https://shop.example/' }, (answer: unknown) => answers.push(answer));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(answers).toEqual([{ ok: true }, { refused: true }]);
  });
});
