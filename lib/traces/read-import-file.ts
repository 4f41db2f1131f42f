// Apart from the viewer's model: a file to import is checked here before it reaches the
// background, so that a bad one changes nothing and says why in words.
import { formatBytesToTenthMegabyte } from '../text/format-bytes';
import { utf8Length } from '../text/utf8-length';
import { readTraceFile, type TraceFileReading } from './trace-file';

/** The traces of a file's text, or the notice that says why nothing was imported: it is too large, or not a trace file. */
export function readImportFile(text: string, maxFileBytes: number): TraceFileReading {
  if (utf8Length(text) > maxFileBytes) {
    return { ok: false, message: `Nothing was imported: the file is larger than ${formatBytesToTenthMegabyte(maxFileBytes)}.` };
  }
  const reading = readTraceFile(text);
  return reading.ok ? reading : { ok: false, message: `Nothing was imported. ${reading.message}` };
}
