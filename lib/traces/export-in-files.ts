import { utf8Length } from '../text/utf8-length';
import { storedSize } from './select-runs-to-remove';
import { createTraceFile, maxRunsPerFile } from './trace-file';
import type { StoredTrace } from './trace-schema';

/** One file of an export, ready to hand to the person. */
export interface ExportFile {
  text: string;
  runCount: number;
  /** Set when one run alone is larger than a file the viewer imports: its file cannot come back. */
  tooLarge?: { runId: string; request: string; bytes: number };
}

/** Room a file needs besides its runs: the format, version and time of export. */
const fileHeaderBytes = 1_024;

/**
 * Exports runs as files of at most `maxBytes` each, newest runs first, so that every file imports
 * back. Runs are read a file at a time: a store of a gigabyte is never held whole. Sizes recorded
 * before they were counted in bytes may be short, so a file that comes out too large is split again.
 */
export async function* exportInFiles(
  runs: ReadonlyArray<{ id: string; sizeBytes: number }>,
  read: (runIds: string[]) => Promise<StoredTrace[]>,
  maxBytes: number,
): AsyncGenerator<ExportFile> {
  const pending = groupBySize(runs, maxBytes - fileHeaderBytes);
  while (pending.length > 0) {
    const runIds = pending.shift()!;
    const traces = await read(runIds);
    // Runs removed since they were listed leave nothing to write: no empty file is handed out.
    if (traces.length === 0) continue;
    const text = JSON.stringify(createTraceFile(traces));
    const bytes = utf8Length(text);
    if (bytes <= maxBytes) {
      yield { text, runCount: traces.length };
    } else if (runIds.length > 1) {
      const half = Math.ceil(runIds.length / 2);
      pending.unshift(runIds.slice(0, half), runIds.slice(half));
    } else {
      const run = traces[0]?.run;
      yield { text, runCount: traces.length, ...(run ? { tooLarge: { runId: run.id, request: run.request, bytes } } : {}) };
    }
  }
}

/** What an export handed the person. */
export interface ExportSummary {
  runCount: number;
  fileCount: number;
  tooLarge: NonNullable<ExportFile['tooLarge']>[];
}

/**
 * Hands the files of `exportInFiles` to `download` as they are made: `<name>.json` when one file
 * holds everything, else `<name>-part-1.json`, `-part-2` and so on. One file is held back until the
 * next is made: only then is it known whether there are parts.
 */
export async function downloadInFiles(files: AsyncIterable<ExportFile>, name: string, download: (fileName: string, text: string) => void): Promise<ExportSummary> {
  const summary: ExportSummary = { runCount: 0, fileCount: 0, tooLarge: [] };
  let held: ExportFile | undefined;
  for await (const file of files) {
    if (held) download(`${name}-part-${(summary.fileCount += 1)}.json`, held.text);
    held = file;
    summary.runCount += file.runCount;
    if (file.tooLarge) summary.tooLarge.push(file.tooLarge);
  }
  if (held) {
    summary.fileCount += 1;
    download(summary.fileCount === 1 ? `${name}.json` : `${name}-part-${summary.fileCount}.json`, held.text);
  }
  return summary;
}

function groupBySize(runs: ReadonlyArray<{ id: string; sizeBytes: number }>, maxBytes: number): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const run of runs) {
    // A record without a size (damaged) counts as none, as retention counts it: the sum stays a number.
    const size = storedSize(run);
    if (current.length > 0 && (bytes + size > maxBytes || current.length === maxRunsPerFile)) {
      groups.push(current);
      [current, bytes] = [[], 0];
    }
    current.push(run.id);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
