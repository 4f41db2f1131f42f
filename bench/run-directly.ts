import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSection } from './bench-section';
import { formatBenchSection } from './format-bench-section';

/** When the benchmark file itself is what `tsx` was asked to run, runs it and prints its tables. */
export async function runDirectly(
  moduleUrl: string,
  bench: () => Promise<BenchSection | BenchSection[]>,
): Promise<void> {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const sections = [await bench()].flat();
  console.log(sections.map(formatBenchSection).join('\n\n'));
}
