/** One table of a benchmark's results, as `npm run bench` prints it. */
export interface BenchSection {
  title: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
  /**
   * What this run could not measure here (data or a browser missing), which the figures on record
   * may hold: the table is then printed, not written over them.
   */
  leftOut?: string[];
}

/** Why a bench's figures on record stay as they are (it measured nothing here, or only part), or undefined to write the new ones. */
export function whyFiguresStay(sections: readonly BenchSection[]): string | undefined {
  if (sections.every((section) => section.rows.length === 0)) return 'it measured nothing here';
  const leftOut = sections.flatMap((section) => section.leftOut ?? []);
  return leftOut.length > 0 ? `it left out ${leftOut.join('; ')}` : undefined;
}

/** Why a bench that drives the built extension in Chromium cannot run here, as its table's note; undefined where it can. */
export function whyBrowserBenchSkips(extensionBuilt: boolean, chromiumAvailable: boolean): string | undefined {
  if (!extensionBuilt) return 'Skipped: build the extension first (`npm run build`).';
  return chromiumAvailable ? undefined : 'Skipped: no Chromium.';
}
