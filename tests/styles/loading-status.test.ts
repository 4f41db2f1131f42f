import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const panelCss = readFileSync(new URL('../../entrypoints/sidepanel/style.css', import.meta.url), 'utf8');

/** The declarations of one rule of the side panel's stylesheet, by its selector. */
function declarations(selector: string): string {
  const rule = [...panelCss.matchAll(/([^{}]+)\{([^}]*)\}/g)].find((match) => match[1]!.replace(/\/\*[\s\S]*?\*\//g, '').trim() === selector);
  if (!rule) throw new Error(`no rule for ${selector}`);
  return rule[2]!;
}

// A first download takes minutes: at a side panel's 320–400 px the words saying so were cut to 0 px.
describe("the side panel's loading status", () => {
  it('takes a row of its own, and its words a line of their own, wrapped rather than cut', () => {
    expect(declarations('.status-line')).toMatch(/flex-wrap:\s*wrap/);
    expect(declarations('.status-loading')).toMatch(/flex:\s*1 1 100%/);
    expect(declarations('.status-detail')).toMatch(/flex:\s*1 1 100%/);
    expect(declarations('.status-detail')).not.toMatch(/nowrap|ellipsis/);
  });
});
