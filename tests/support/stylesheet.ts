import { readFileSync } from 'node:fs';

/** A file of the project, read as text. */
export const readProjectFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

export const darkScheme = '@media (prefers-color-scheme: dark)';

/** A colour a stylesheet's :root sets, light (before its dark block) or dark (inside it). */
export function token(css: string, name: string, mode: 'light' | 'dark'): string {
  const darkStart = css.indexOf(darkScheme);
  const part = mode === 'light' ? css.slice(0, darkStart) : css.slice(darkStart);
  const value = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(part)?.[1];
  if (!value) throw new Error(`--${name} has no ${mode} colour`);
  return value;
}
