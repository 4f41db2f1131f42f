// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProseView } from '@/components/chat/prose-view';
import { renderMarkdownBlock } from '@/lib/sidepanel/render-markdown';

// Spied, not replaced: the real renderer runs, and the test counts what it is given.
vi.mock('@/lib/sidepanel/render-markdown', { spy: true });

function numberedList(count: number): string {
  return Array.from({ length: count }, (_, index) => `${index + 1}. Item ${index + 1} with **bold** text\n`).join('');
}

function table(count: number): string {
  const rows = Array.from({ length: count }, (_, index) => `| ${index + 1} | Widget ${index + 1} | ${index + 1}.99 |\n`);
  return `| # | name | price |\n|---|---|---:|\n${rows.join('')}`;
}

/** Streams `text` into a live ProseView in `pieces` deltas, each shown; returns the characters of HTML rendered. */
function stream(container: HTMLElement, text: string, pieces: number): number {
  vi.mocked(renderMarkdownBlock).mockClear();
  const size = Math.ceil(text.length / pieces);
  for (let end = size; end < text.length + size; end += size) {
    act(() => render(<ProseView text={text.slice(0, end)} live />, container));
    act(() => {
      vi.advanceTimersByTime(50);
    });
  }
  return vi.mocked(renderMarkdownBlock).mock.results.reduce((sum, { value }) => sum + String(value).length, 0);
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a reply that is one long block', () => {
  it('adds a growing list’s new items and leaves the items shown alone', () => {
    const container = document.createElement('div');
    const text = numberedList(600);
    render(<ProseView text={text.slice(0, 200)} live />, container);
    const first = container.querySelector('li');
    const rendered = stream(container, text, 60);

    expect(container.querySelectorAll('ol > li')).toHaveLength(600);
    expect(container.querySelector('li')).toBe(first);
    expect(container.querySelector('li')?.innerHTML).toBe('Item 1 with <strong>bold</strong> text');

    const whole = document.createElement('div');
    act(() => render(<ProseView text={text} live={false} />, whole));
    // Rendering the whole list at each of 60 updates would render it 30 times over.
    expect(rendered).toBeLessThan(3 * whole.innerHTML.length);
    act(() => render(<ProseView text={text} live={false} />, container));
    expect(container.innerHTML).toBe(whole.innerHTML);
    render(null, container);
    render(null, whole);
  });

  it('adds a growing table’s new rows and leaves the rows shown alone', () => {
    const container = document.createElement('div');
    const text = table(600);
    const rendered = stream(container, text, 60);

    expect(container.querySelectorAll('tbody > tr')).toHaveLength(600);
    expect(container.querySelector('tbody td')?.textContent).toBe('1');
    expect(container.querySelector('th:last-child')?.getAttribute('align')).toBe('right');

    const whole = document.createElement('div');
    act(() => render(<ProseView text={text} live={false} />, whole));
    expect(rendered).toBeLessThan(3 * whole.innerHTML.length);
    expect(container.innerHTML).toBe(whole.innerHTML);
    render(null, container);
    render(null, whole);
  });

  it('renders every item again when the list turns loose', () => {
    const container = document.createElement('div');
    stream(container, numberedList(20), 4);
    expect(container.querySelector('li p')).toBeNull();
    act(() => render(<ProseView text={`${numberedList(20)}\n21. Item 21 after a blank line\n`} live />, container));
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(container.querySelectorAll('ol > li')).toHaveLength(21);
    expect(container.querySelectorAll('ol > li > p')).toHaveLength(21);
    render(null, container);
  });

  it('waits longer between updates where laying the reply out is slow, not only rendering it', async () => {
    vi.useRealTimers();
    // Layout as slow as a long table's on a slow machine: 60 ms each time the page is laid out.
    const layout = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => {
      const until = performance.now() + 60;
      while (performance.now() < until);
      return 0;
    });
    const container = document.createElement('div');
    document.body.append(container);
    try {
      act(() => render(<ProseView text={table(50)} live />, container));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const asked = performance.now();
      act(() => render(<ProseView text={table(51)} live />, container));
      await vi.waitFor(() => expect(container.querySelectorAll('tbody > tr')).toHaveLength(51), { timeout: 2_000, interval: 5 });
      // Three times what the last update cost, layout included, before the next.
      expect(performance.now() - asked).toBeGreaterThanOrEqual(150);
    } finally {
      layout.mockRestore();
      render(null, container);
      container.remove();
    }
  });
});
