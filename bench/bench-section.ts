/** One table of a benchmark's results, as `npm run bench` prints it. */
export interface BenchSection {
  title: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
}
