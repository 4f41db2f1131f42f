// Prints the closing "N passed, N failed" line from vitest's JSON report, and exits with the test
// command's status. When the report is missing (the type check or the build failed), that is a failure.
import { existsSync, readFileSync } from 'node:fs';

const [reportPath, statusText] = process.argv.slice(2);
const status = Number(statusText ?? 1);
let passed = 0;
let failed = 0;
let skipped = 0;
if (reportPath && existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  passed = report.numPassedTests ?? 0;
  // A file that failed without a failed test (it did not load, a hook threw) counts once; the
  // report's suite count would also count each describe block around a failed test.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  failed = (report.numFailedTests ?? 0) + brokenFiles;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (status !== 0 && failed === 0) failed = 1;
// The last line is exactly "N passed, N failed", for a reader that anchors it; skipped tests go above.
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 ? 0 : 1);
