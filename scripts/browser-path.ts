// The browser that `npm start` opens and the end-to-end tests drive, named by one variable.

/** CHROMIUM_PATH names the browser; CHROME_PATH, which `npm start` read before, still works. */
export const browserPathVariables = ['CHROMIUM_PATH', 'CHROME_PATH'] as const;

/** The first of CHROMIUM_PATH and CHROME_PATH that is set, and which one it was. */
export function browserPathFromEnvironment(
  environment: Record<string, string | undefined> = process.env,
): { variable: (typeof browserPathVariables)[number]; path: string } | undefined {
  for (const variable of browserPathVariables) {
    const path = environment[variable];
    if (path) return { variable, path };
  }
  return undefined;
}

/**
 * Whether a path looks like branded Google Chrome (any channel), which ignores --load-extension
 * since version 137. Chromium and Chrome for Testing ("Google Chrome for Testing") still load it.
 */
export function looksLikeBrandedChrome(path: string): boolean {
  const normalised = path.replace(/\\/g, '/').toLowerCase();
  if (normalised.includes('google chrome for testing')) return false;
  return /google[- ]chrome/.test(normalised) || /\/google\/chrome[^/]*\//.test(normalised);
}

/** What to do with branded Chrome: load the built extension by hand. */
export function loadUnpackedSteps(extensionDir: string): string {
  return [
    'Branded Google Chrome 137 and later ignores --load-extension. To use it anyway, open',
    'chrome://extensions, turn on Developer mode, choose "Load unpacked" and pick',
    `  ${extensionDir}`,
  ].join('\n');
}
