import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from '../../support/shared-eval';

/**
 * Where an end-to-end test saves a screenshot: the README's `docs/` with `UPDATE_SCREENSHOTS=1`,
 * otherwise `test-results/`, so an ordinary test run leaves the tracked files as they are.
 */
export function screenshotPath(fileName: string): string {
  const folder = resolve(projectRoot, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs' : 'test-results');
  mkdirSync(folder, { recursive: true });
  return resolve(folder, fileName);
}
