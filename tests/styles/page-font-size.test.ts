import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe("the extension's pages' text size", () => {
  // Chrome's style for extension pages gives the body 75 % of the root's size: a size set on :root
  // alone comes out at 9.75 px on every control and label.
  it.each(['sidepanel', 'options', 'traces', 'devtools-panel'])('is set on the body of %s, where the text inherits it', (page) => {
    expect(read(`entrypoints/${page}/style.css`)).toMatch(/^html body \{ font: 1[34]px\/1\.[0-9]+ [^}]+\}/m);
  });
});
