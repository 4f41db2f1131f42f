import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root, whichever file imports this. */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The public evaluation data lives beside the project, in `../shared/eval/`, and is read in place. */
export const sharedEvalDir = resolve(projectRoot, '../shared/eval');

export const sharedEvalAvailable = existsSync(resolve(sharedEvalDir, 'toolcalls.json'));

/** Said once by every test file or benchmark that skips for want of the data. */
export const sharedEvalMissingMessage =
  `The shared evaluation data was not found at ${sharedEvalDir} (it sits beside the project in ` +
  `the team's checkout): the tests and benchmarks that read it are skipped.`;

/** Reads `../shared/eval/<name>`, or returns null (after saying so) when it is not there. */
export function readSharedEval<T>(name: string): T | null {
  const path = resolve(sharedEvalDir, name);
  if (!existsSync(path)) {
    console.warn(sharedEvalMissingMessage);
    return null;
  }
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
