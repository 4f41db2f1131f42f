// Apart from `npm start`, so that a test can show what it does with a real browser.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Chromium keeps a copy of each service worker's script in the profile and, for an extension
 * loaded with --load-extension, starts that copy again after the files were rebuilt: the pages
 * come from the new build and the background from the old one, so they no longer understand each
 * other (traces lost, messages refused). Removing the copies (the scripts and the registrations
 * that name them) makes the browser read the build again. The folder's Cache Storage, where WebLLM
 * keeps the models it downloaded, stays, as does the extension's storage elsewhere in the profile.
 */
export function forgetCachedWorkers(profileDir: string): void {
  for (const part of ['ScriptCache', 'Database']) rmSync(join(profileDir, 'Default', 'Service Worker', part), { recursive: true, force: true });
}
