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
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status === 0 ? 0 : 1);
