import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../support/contrast';

const panelCss = readFileSync(new URL('../../entrypoints/sidepanel/style.css', import.meta.url), 'utf8');
const themeCss = readFileSync(new URL('../../assets/theme.css', import.meta.url), 'utf8');

/** The declarations of one rule of the side panel's stylesheet, by its selector. */
function declarations(selector: string): string {
  const rule = [...panelCss.matchAll(/([^{}]+)\{([^}]*)\}/g)].find((match) => match[1]!.replace(/\/\*[\s\S]*?\*\//g, '').trim() === selector);
  if (!rule) throw new Error(`no rule for ${selector}`);
  return rule[2]!;
}

/** A theme variable's value in the light theme (its first definition) and the dark one (its second). */
function themeColours(name: string): string[] {
  return [...themeCss.matchAll(new RegExp(`--${name}:\\s*(#[0-9a-f]{3,6})`, 'gi'))].map((match) => match[1]!);
}

// A call whose page never answered may have done its work: it must not look like a question still open.
describe("a tool card the page never answered", () => {
  it('is drawn apart from one waiting for the person, its state readable in both themes', () => {
    expect(declarations('.tool-card.state-unanswered')).toMatch(/border-color:\s*var\(--attention\)/);
    expect(declarations('.tool-card.state-waiting')).toMatch(/border-color:\s*var\(--accent\)/);
    expect(declarations('.state-unanswered .tool-state')).toMatch(/color:\s*var\(--warning-text\)/);
    const [lightText, darkText] = themeColours('warning-text');
    const [lightSurface, darkSurface] = themeColours('surface');
    expect(contrastRatio(lightText!, lightSurface!)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(darkText!, darkSurface!)).toBeGreaterThanOrEqual(4.5);
  });
});
