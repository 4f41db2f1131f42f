import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { handleBackgroundMessages, isExtensionGone, sendToBackground } from '@/lib/messaging/runtime-messaging';

beforeEach(() => fakeBrowser.reset());

describe('one-shot messages through the protocol map', () => {
  it('delivers a checked message and its checked reply', async () => {
    const received: unknown[] = [];
    handleBackgroundMessages({
      'tools-report': (report) => {
        received.push(report);
        return null;
      },
    });
    await expect(sendToBackground('tools-report', { url: 'https://a.example/', tools: [{ name: 'x' }], dropped: [] })).resolves.toBeNull();
    expect(received).toEqual([{ url: 'https://a.example/', tools: [{ name: 'x' }], dropped: [] }]);
  });

  it('refuses a message of the wrong shape, and passes a handler’s error back by name', async () => {
    handleBackgroundMessages({
      'tools-report': () => null,
      'frame-gone': () => {
        throw Object.assign(new Error('No such frame.'), { name: 'NotFoundError' });
      },
    });
    const wrongShape = { protocol: 'webmcp-local-agent', type: 'tools-report', data: { url: 42 } };
    await expect(browser.runtime.sendMessage(wrongShape)).resolves.toMatchObject({ ok: false, error: { name: 'TypeError' } });
    await expect(sendToBackground('frame-gone', {})).rejects.toMatchObject({ name: 'NotFoundError', message: 'No such frame.' });
  });

  it('turns a send that throws at once (its extension reloaded) into a failed send, for the caller to catch', async () => {
    const spy = vi.spyOn(browser.runtime, 'sendMessage').mockImplementation(() => {
      throw new Error('Extension context invalidated.');
    });
    try {
      await expect(sendToBackground('frame-gone', {})).rejects.toThrow('Extension context invalidated.');
    } finally {
      spy.mockRestore();
    }
  });

  it('tells a send that failed because the extension went away from one the background refused', () => {
    expect(isExtensionGone(new Error('Extension context invalidated.'))).toBe(true);
    expect(isExtensionGone(Object.assign(new Error('No such frame.'), { name: 'NotFoundError' }))).toBe(false);
    // Chrome may take the runtime away from an orphaned script altogether.
    const id = vi.spyOn(browser.runtime, 'id', 'get').mockReturnValue(undefined as unknown as string);
    try {
      expect(isExtensionGone(new TypeError("Cannot read properties of undefined (reading 'sendMessage')"))).toBe(true);
    } finally {
      id.mockRestore();
    }
  });

  it('answers no message named after what every object inherits ("constructor", "__proto__", "toString")', async () => {
    handleBackgroundMessages({ 'tools-report': () => null });
    const heard: unknown[] = [];
    browser.runtime.onMessage.addListener((message: unknown, _sender: unknown, sendResponse: (reply: unknown) => void) => {
      heard.push((message as { type?: string }).type);
      sendResponse('left to others');
      return true;
    });
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      await expect(browser.runtime.sendMessage({ protocol: 'webmcp-local-agent', type, data: {} })).resolves.toBe('left to others');
    }
    expect(heard).toEqual(['constructor', '__proto__', 'toString', 'hasOwnProperty']);
  });

  it('leaves messages of other protocols to other listeners', async () => {
    handleBackgroundMessages({ 'tools-report': () => null });
    browser.runtime.onMessage.addListener((message: unknown, _sender: unknown, sendResponse: (reply: unknown) => void) => {
      if ((message as { kind?: string }).kind !== 'other') return false;
      sendResponse('theirs');
      return true;
    });
    await expect(browser.runtime.sendMessage({ kind: 'other' })).resolves.toBe('theirs');
  });
});
