import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from '../../support/shared-eval';

/**
 * Where an end-to-end test saves a screenshot: with `UPDATE_SCREENSHOTS=1`, over the README's image
 * of that name in `docs/`; otherwise, and for a picture the README does not show, `test-results/`,
 * so a test run leaves the tracked files as they are and adds none.
 */
export function screenshotPath(fileName: string): string {
  const shown = resolve(projectRoot, 'docs', fileName);
  if (process.env.UPDATE_SCREENSHOTS === '1' && existsSync(shown)) return shown;
  const folder = resolve(projectRoot, 'test-results');
  mkdirSync(folder, { recursive: true });
  return resolve(folder, fileName);
}
