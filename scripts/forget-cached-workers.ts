// Apart from `npm start`, so that a test can show what it does with a real browser.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Chromium keeps a copy of each service worker's script in the profile and, for an extension
 * loaded with --load-extension, starts that copy again after the files were rebuilt: the pages
 * come from the new build and the background from the old one, so they no longer understand each
 * other (traces lost, messages refused). Removing the copies makes the browser read the build
 * again; it loses nothing kept in the extension's storage, which lives elsewhere in the profile.
 */
export function forgetCachedWorkers(profileDir: string): void {
  rmSync(join(profileDir, 'Default', 'Service Worker'), { recursive: true, force: true });
}
