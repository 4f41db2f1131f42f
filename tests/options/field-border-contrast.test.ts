import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const theme = readFileSync(new URL('../../assets/theme.css', import.meta.url), 'utf8');
const optionsStyle = readFileSync(new URL('../../entrypoints/options/style.css', import.meta.url), 'utf8');
const darkStart = theme.indexOf('@media (prefers-color-scheme: dark)');

/** A colour token as the theme sets it, light (before the dark block) or dark (inside it). */
function token(name: string, mode: 'light' | 'dark'): string {
  const part = mode === 'light' ? theme.slice(0, darkStart) : theme.slice(darkStart);
  const value = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(part)?.[1];
  if (!value) throw new Error(`--${name} has no ${mode} colour in theme.css`);
  return value;
}

// WCAG 2.x relative luminance and contrast ratio.
function luminance(hex: string): number {
  const [red, green, blue] = [1, 3, 5].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
}
function contrast(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (lighter! + 0.05) / (darker! + 0.05);
}

describe("the options page's form fields", () => {
  it.each(['light', 'dark'] as const)('have an edge of 3:1 or more on the background in %s mode (WCAG 1.4.11)', (mode) => {
    expect(contrast(token('field-border', mode), token('background', mode))).toBeGreaterThanOrEqual(3);
  });

  it('take their edge from --field-border, not the divider colour', () => {
    const fieldRule = /\.field input, \.field select, \.row input \{([^}]*)\}/.exec(optionsStyle)?.[1];
    expect(fieldRule).toContain('border: 1px solid var(--field-border)');
  });
});
