import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../support/contrast';
import { darkScheme, readProjectFile as read, token } from '../support/stylesheet';

const theme = read('assets/theme.css');
const inspector = read('entrypoints/devtools-panel/style.css');

describe("form fields' edges (WCAG 1.4.11: 3:1 or more on what surrounds them)", () => {
  it.each(['light', 'dark'] as const)('hold in %s mode, on the pages built on the theme and in the inspector', (mode) => {
    expect(contrastRatio(token(theme, 'field-border', mode), token(theme, 'background', mode))).toBeGreaterThanOrEqual(3);
    // The inspector sits on devtools' own background: white, or its dark grey.
    const inspectorBackground = mode === 'light' ? '#ffffff' : /background:\s*(#[0-9a-f]{6})/i.exec(inspector.slice(inspector.indexOf(darkScheme)))![1]!;
    expect(contrastRatio(token(inspector, 'field-border', mode), inspectorBackground)).toBeGreaterThanOrEqual(3);
  });

  it('are drawn in --field-border, not the divider colour, on every page with fields', () => {
    // Every declaration the selector's rules make, wherever in the sheet they are.
    const rule = (css: string, selector: string) =>
      [...css.matchAll(new RegExp(`${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\{([^}]*)\\}`, 'g'))].map((match) => match[1]).join(';');
    expect(rule(read('entrypoints/options/style.css'), '.field input, .field select, .row input')).toContain('border: 1px solid var(--field-border)');
    expect(rule(read('entrypoints/sidepanel/style.css'), '.composer textarea')).toContain('border: 1px solid var(--field-border)');
    expect(rule(read('entrypoints/traces/style.css'), "select, input[type='search'], input[type='number']")).toContain('border: 1px solid var(--field-border)');
    expect(rule(inspector, ".field input:not([type='checkbox']), .field select, .json-editor, .text-editor")).toContain('var(--field-border)');
    expect(rule(inspector, '.agent-query')).toContain('var(--field-border)');
  });
});
