// @vitest-environment happy-dom
import fc from 'fast-check';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProseView } from '@/components/chat/prose-view';

// Markdown whose reading depends on what follows: lists that turn loose, setext headings,
// reference links defined later, fences closed later, tables.
const fragment = fc.constantFrom(
  'Some text', ' more', '\n', '\n\n', '- item', '1. first', '2. second', '===', '---', '> quote', '```', '```js',
  '[ref]', '[ref]: https://ref.example', '[x](https://x.example)', '**b', '**', '*i*', '| a | b |', '|---|---|', '| 1 | 2 |',
  '    indented', '<b>raw</b>', '![img](https://i.example/p.png)', '# Title', 'www.auto.example', '\r\n',
  '  - nested', '   continued', '<div>', '</div>', '~~~', '***', 'lazy line', '\\*', '&amp;', '- [ ] task', 'كوب أحمر',
);
const reply = fc.array(fragment, { minLength: 1, maxLength: 30 }).map((parts) => parts.join(''));

/**
 * The HTML with each element's attributes in name order, as the order an attribute was set in
 * means nothing; and without an empty `dir`, which HTML reads as none (Preact leaves one where a
 * block's direction became the reply's).
 */
function canonicalHtml(container: HTMLElement): string {
  const copy = container.cloneNode(true) as HTMLElement;
  for (const element of copy.querySelectorAll('*')) {
    const attributes = [...element.attributes].map(({ name, value }) => [name, value] as const).sort(([a], [b]) => a.localeCompare(b));
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes) if (!(name === 'dir' && value === '')) element.setAttribute(name, value);
  }
  return copy.innerHTML;
}

function renderProse(container: HTMLElement, text: string, live: boolean): void {
  act(() => render(<ProseView text={text} live={live} />, container));
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

// `npm run fuzz` raises the number of runs, up to what rendering allows in about a minute.
const runs = Math.min(Number(process.env.FUZZ_RUNS) || 150, 50_000);
const timeLimitMs = Math.max(10_000, runs * 3);

describe('ProseView', () => {
  it('links earlier text to a reference defined later in the stream', () => {
    const container = document.createElement('div');
    renderProse(container, 'See [the shop].\n\n', true);
    act(() => {
      vi.advanceTimersByTime(50);
    });
    renderProse(container, 'See [the shop].\n\n[the shop]: https://shop.example/\n', true);
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://shop.example/');
    render(null, container);
  });

  it('ends with the same HTML however the reply was cut into deltas', () => {
    fc.assert(
      fc.property(reply, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        // A finished reply that arrives whole, as in a snapshot.
        const oneShot = document.createElement('div');
        renderProse(oneShot, text, false);

        const streamed = document.createElement('div');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        for (const point of [...points, text.length]) {
          renderProse(streamed, text.slice(0, point), true);
          act(() => {
            vi.advanceTimersByTime(50);
          });
        }
        renderProse(streamed, text, false);
        expect(canonicalHtml(streamed)).toBe(canonicalHtml(oneShot));
        render(null, oneShot);
        render(null, streamed);
      }),
      { numRuns: runs },
    );
  }, timeLimitMs);
});
