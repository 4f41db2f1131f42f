// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolFormRoots } from '@/lib/webmcp/tool-form-roots';
import { watchToolForms } from '@/lib/webmcp/watch-tool-forms';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** How many elements the watcher looked into: each look asks the element for its shadow root. */
function countLooks(): { readonly count: number } {
  const looks = vi.spyOn(Element.prototype, 'shadowRoot', 'get');
  return {
    get count() {
      return looks.mock.calls.length;
    },
  };
}

/** Appends a new element to `parent`, as the parser and frameworks do: one change each. */
function append(parent: Node, name: string): Element {
  return parent.appendChild(document.createElement(name));
}

describe('watchToolForms', () => {
  it('on a page without forms, reacts to a form added and then removed, and to nothing else', async () => {
    const onChange = vi.fn();
    stop = watchToolForms(new ToolFormRoots(), onChange);
    const article = document.body.appendChild(document.createElement('article'));
    article.textContent = 'A long article.';
    article.setAttribute('id', 'story');
    await flush();
    expect(onChange).not.toHaveBeenCalled();

    const form = document.createElement('form');
    form.setAttribute('toolname', 'subscribe');
    document.body.append(form);
    await flush();
    expect(onChange).toHaveBeenCalledTimes(1);
    form.remove();
    await flush();
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('looks into a long page the parser adds once it is parsed, in one walk, not one change at a time', async () => {
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => setTimeout(callback, 0));
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    const onChange = vi.fn();
    stop = watchToolForms(new ToolFormRoots(), onChange);
    const looks = countLooks();
    // The parser adds a long page element by element, and a script gives one a shadow root with a form.
    const main = append(document.body, 'main');
    for (let row = 0; row < 50; row += 1) append(append(append(main, 'div'), 'p'), 'span');
    append(main, 'div').attachShadow({ mode: 'open' }).innerHTML = '<form toolname="search" tooldescription="Search."></form>';
    // The parser is done; its changes reach the watcher before DOMContentLoaded does.
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true });
    await flush();
    expect(looks.count).toBe(0);

    // Not while DOMContentLoaded and load are dispatched (page listeners wait for them), and once for both.
    document.dispatchEvent(new Event('DOMContentLoaded'));
    Reflect.deleteProperty(document, 'readyState');
    window.dispatchEvent(new Event('load'));
    expect(looks.count).toBe(0);
    await flush();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(looks.count).toBeLessThanOrEqual(document.getElementsByTagName('*').length + 1);
  });

  it('looks into what a page adds together once: a list rendered item by item into its new parent', async () => {
    const onChange = vi.fn();
    stop = watchToolForms(new ToolFormRoots(), onChange);
    const looks = countLooks();
    const list = append(document.body, 'ul');
    for (let item = 0; item < 30; item += 1) {
      const li = append(list, 'li');
      for (let word = 0; word < 3; word += 1) append(li, 'span');
    }
    await flush();
    expect(looks.count).toBe(1 + 30 + 30 * 3);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('stops checking a custom element name the page never defines after a minute', () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<main><user-avatar></user-avatar></main>';
    stop = watchToolForms(new ToolFormRoots(), vi.fn());
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(2 * 60_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
