// @vitest-environment happy-dom
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { renderMarkdown } from '@/lib/sidepanel/render-markdown';

const allowedTags = new Set([
  'p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'hr',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
]);
const allowedAttributes = new Set(['href', 'title', 'target', 'rel', 'start', 'align', 'class']);

// Pieces a model (or a page quoted by it) might write, mixed at random.
const fragment = fc.constantFrom(
  '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '<iframe src="https://e.example">', '<a href="javascript:x">',
  '![p](https://e.example/p.png)', '[l](javascript:alert(1))', '[l](https://ok.example "t\\"x")', '<https://auto.example>',
  '**b**', '*i*', '`c`', '```\n<b>\n```', '\n\n', '\n', '- ', '1. ', '> ', '| a | b |\n|---|---|\n| 1 | 2 |', '- [x] ',
  '<', '>', '"', "'", '&', '&amp;', '<svg onload=x>', '<style>*{}</style>', '<div style="x">', 'text ', 'www.link.example',
);

/** Every tag in `html` is allowed, with allowed attributes; every link goes to the web or mail. */
function onlySafeMarkup(html: string): boolean {
  const withoutTags = html.replace(/<\/?([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*\/?>/g, (_tag, name: string, attributes: string) => {
    if (!allowedTags.has(name)) throw new Error(`tag ${name}`);
    for (const [, attribute, value] of attributes.matchAll(/([a-z-]+)="([^"]*)"/g)) {
      if (!attribute || !allowedAttributes.has(attribute)) throw new Error(`attribute ${attribute}`);
      if (attribute === 'href' && !/^(https?:|mailto:)/i.test(value ?? '')) throw new Error(`href ${value}`);
    }
    return '';
  });
  if (withoutTags.includes('<')) throw new Error(`stray markup in ${withoutTags}`);
  return true;
}

// Cases per property: 10^4 by default (about a quarter of a second); `npm run fuzz` asks for 10^6.
const runs = Number(process.env.FUZZ_RUNS) || 10_000;
const timeLimitMs = Math.max(10_000, runs);

describe('renderMarkdown on hostile text', () => {
  it('only ever produces allowed tags, attributes and links', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 20 }).map((parts) => parts.join('')), (text) => onlySafeMarkup(renderMarkdown(text))),
      { numRuns: runs },
    );
  }, timeLimitMs);

  it('never throws on any string', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => typeof renderMarkdown(text) === 'string'), { numRuns: runs });
  }, timeLimitMs);
});
