import { describe, expect, it } from 'vitest';
import { chromiumAvailable, chromiumPath } from './support';

// Elsewhere the browser tests skip without Chromium; in CI (which installs it) that would hide them all.
describe.runIf(Boolean(process.env.CI))('the browser in CI', () => {
  it('finds Chromium, so the end-to-end tests run instead of being skipped', () => {
    expect(chromiumAvailable, `Chromium was not found at ${chromiumPath}; install it or set CHROMIUM_PATH`).toBe(true);
  });
});
