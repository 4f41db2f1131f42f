import { describe, expect, it } from 'vitest';
import { closedPageKind } from '../../lib/registry/closed-page-kind';

describe('closedPageKind: pages no reload opens to the extension', () => {
  it('names browser pages, the extension stores and PDFs, and files', () => {
    for (const url of ['chrome://newtab/', 'chrome://settings', 'chrome-extension://abc/options.html', 'about:blank', 'view-source:https://shop.example/', 'https://chromewebstore.google.com/detail/x', 'https://chrome.google.com/webstore/category/extensions', 'https://shop.example/menu.PDF']) {
      expect(closedPageKind(url)).toBe('browser');
    }
    expect(closedPageKind('file:///home/ada/menu.html')).toBe('file');
  });

  it('leaves web pages, which a reload may open, and what is no address', () => {
    for (const url of ['https://shop.example/cart', 'http://localhost:8377/', 'https://chrome.google.com/search', 'not an address', '']) expect(closedPageKind(url)).toBeUndefined();
  });
});
