import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const optionsCss = readFileSync(new URL('../../entrypoints/options/style.css', import.meta.url), 'utf8');

/** Each selector of the options stylesheet that sets an opacity, one per entry. */
function dimmedSelectors(css: string): string[] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
    .filter((rule) => /(^|;)\s*opacity\s*:/.test(rule[2]!))
    .flatMap((rule) => rule[1]!.replace(/\/\*[\s\S]*?\*\//g, '').split(','))
    .map((selector) => selector.trim());
}

describe('an engine that cannot be picked, on the options page', () => {
  // Muted text at 60% opacity falls well under 4.5:1: the reason would be the hardest words to read.
  it('dims its radio and name, and leaves the reason beside them readable', () => {
    const dimmed = dimmedSelectors(optionsCss).filter((selector) => selector.startsWith('.choice.disabled'));
    expect(dimmed).toEqual(['.choice.disabled > input', '.choice.disabled strong']);
  });
});
