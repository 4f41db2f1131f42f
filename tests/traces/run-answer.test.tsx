// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { RunAnswer } from '@/components/traces/run-answer';

const root = document.createElement('div');
afterEach(() => render(null, root));

describe("a run's answer in the trace viewer", () => {
  it('reads in the direction the side panel gave it: an Arabic answer that starts with a Latin name right to left', () => {
    render(<RunAnswer text="iPhone 15 Pro: بسعر 4999 ريال" />, root);
    expect(root.querySelector('[data-testid=run-answer]')?.getAttribute('dir')).toBe('rtl');
    render(<RunAnswer text="The كوب mug is in stock." />, root);
    expect(root.querySelector('[data-testid=run-answer]')?.getAttribute('dir')).toBe('ltr');
  });
});
