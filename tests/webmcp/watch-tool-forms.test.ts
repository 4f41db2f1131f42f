// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolFormRoots } from '@/lib/webmcp/tool-form-roots';
import { watchToolForms } from '@/lib/webmcp/watch-tool-forms';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  document.body.innerHTML = '';
});

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
});
