import { z } from 'zod';
import { errorMessage } from '../messaging/error-message';
import { lazySchema } from '../messaging/lazy-schema';
import { checkTraceContent } from './check-trace-content';
import { runSizeBytes } from './measure-trace';
import { outcomeLabel } from './describe-trace';
import { latestTime } from './trace-limits';
import { inOneGo, type NextSlice } from './time-slices';
import { isTraceOutcome, storedTraceSchema, type StoredTrace } from './trace-schema';

const traceFileFormat = 'webmcp-agent-traces';
/** The version of the file's format that this extension writes and reads. */
const traceFileVersion = 1;

/**
 * Largest file the viewer will read (an extension message carries at most 64 MiB). "Export all"
 * splits a larger store into files of this size, so that each one imports back.
 */
export const maxTraceFileBytes = 50 * 1024 * 1024;

/** Most runs one file holds (as many as retention keeps). */
export const maxRunsPerFile = 10_000;

/** Exported runs, as one JSON file: the same records the store keeps. Built at the first export or import (see lazySchema). */
export const traceFileSchema = lazySchema(() =>
  z.object({
    format: z.literal(traceFileFormat),
    version: z.literal(traceFileVersion),
    exportedAt: z.number().min(0).max(latestTime),
    runs: z.array(storedTraceSchema()).max(maxRunsPerFile),
  }),
);

export type TraceFile = z.infer<ReturnType<typeof traceFileSchema>>;

export type TraceFileReading = { ok: true; traces: StoredTrace[] } | { ok: false; message: string };

export function createTraceFile(traces: readonly StoredTrace[], exportedAt = Date.now()): TraceFile {
  return { format: traceFileFormat, version: traceFileVersion, exportedAt, runs: traces.map(asExported) };
}

/**
 * A run as a file carries it: without the mark of its import here (`importedAt`, which the store
 * sets and no file is believed on), and measured so.
 */
function asExported(trace: StoredTrace): StoredTrace {
  const { run, steps } = trace;
  if (run.importedAt === undefined) return trace;
  const { importedAt: _mark, ...unmarked } = run;
  const stepsBytes = run.sizeBytes - runSizeBytes(run, 0);
  return { run: { ...unmarked, sizeBytes: runSizeBytes(unmarked, stepsBytes) }, steps };
}

/** The file's fields, its runs still unread: they are checked one at a time (see readTraceFile). */
const envelopeSchema = lazySchema(() => traceFileSchema().extend({ runs: z.array(z.unknown()).max(maxRunsPerFile) }));

/**
 * Checks a file's text (or its parsed JSON) and says in words what is wrong with a bad one. A file
 * is untrusted: besides its shape, its times must fall between 2020 and `now`. Its runs are checked
 * one at a time, `nextSlice` called after each, so that a large file (15 MB: about 0.1 s of
 * checking) need not hold the service worker in one go.
 */
export async function readTraceFile(input: unknown, now = Date.now(), nextSlice: NextSlice = inOneGo): Promise<TraceFileReading> {
  let value = input;
  if (typeof input === 'string') {
    if (input.trim() === '') return { ok: false, message: 'This file is empty: it holds no runs.' };
    // The parser's words would quote an image's or an archive's bytes: such a file is told as one.
    if (notText(input)) return { ok: false, message: "This file is not a trace file: it is not text. A trace file is the .json file the viewer's Export writes." };
    try {
      value = JSON.parse(input);
    } catch (error) {
      return { ok: false, message: `This file is not a trace file: ${whereJsonBreaks(input, errorMessage(error))} A trace file is the .json file the viewer's Export writes.` };
    }
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (record.format !== traceFileFormat) {
    return { ok: false, message: `This is not a trace file of the WebMCP agent: it has no "format": "${traceFileFormat}".` };
  }
  if (typeof record.version === 'number' && record.version > traceFileVersion) {
    return {
      ok: false,
      message: `This trace file comes from a newer version of the extension (its format is version ${record.version}; this one reads version ${traceFileVersion}). Update the extension, or export the runs again from this version.`,
    };
  }
  // No version of the extension ever wrote another (the first format is version 1): a file edited by hand.
  if (record.version !== traceFileVersion) {
    return { ok: false, message: `This trace file names no format version this extension wrote (it should say "version": ${traceFileVersion}): it was edited by hand, or written by another program.` };
  }
  const envelope = envelopeSchema().safeParse(value);
  const issues = envelope.success ? [] : [...envelope.error.issues];
  const traces: StoredTrace[] = [];
  // The runs come after the file's other fields, as the whole file's check would list them.
  for (const [index, run] of (Array.isArray(record.runs) ? record.runs : []).entries()) {
    // With the value refused, so that a hand-edited word is named (`plainIssue`).
    const parsed = storedTraceSchema().safeParse(run, { reportInput: true });
    if (parsed.success) traces.push(parsed.data);
    else issues.push(...parsed.error.issues.map((issue) => ({ ...issue, path: ['runs', index, ...issue.path] })));
    await nextSlice();
  }
  if (issues.length > 0) return { ok: false, message: `The trace file is damaged: ${describeIssues(issues)}` };
  const problem = await findInconsistency(traces, now, nextSlice);
  return problem ? { ok: false, message: `The trace file is damaged: ${problem}` } : { ok: true, traces };
}

/**
 * Where a file's JSON goes wrong, in a person's words, not the parser's (which quote the text, and
 * differ from one browser to the next): at which line and column, or that the text ends too soon.
 */
function whereJsonBreaks(text: string, parserWords: string): string {
  // Not even begun as JSON's object or list (a letter, a page of words): no JSON at all.
  if (!/^\s*[[{]/.test(text)) return 'it is not JSON.';
  const at = jsonErrorAt(text, parserWords);
  if (/end of JSON input/.test(parserWords) || (at !== undefined && at >= text.trimEnd().length)) return 'its JSON ends too soon, as if the file were cut short.';
  if (at === undefined) return 'its JSON is damaged.';
  const lines = text.slice(0, at).split(/\r\n|\r|\n/);
  return `its JSON is damaged at line ${lines.length.toLocaleString('en-US')}, column ${(lines.at(-1)!.length + 1).toLocaleString('en-US')}.`;
}

/**
 * Where the parser stopped, counted from the start, as V8 words it: "… in JSON at position 21 (line
 * 2 column 11)", or for an unexpected character "Unexpected token ']', …"2,3,]"… is not valid JSON",
 * whose quote runs from 10 characters before it (the whole text, where short: then its first such
 * character is taken). Undefined where the words say neither, or the quote stands in more than one place.
 */
function jsonErrorAt(text: string, parserWords: string): number | undefined {
  const position = / in JSON at position (\d+)/.exec(parserWords);
  if (position) return Number(position[1]);
  const token = /^Unexpected token '([^]+?)', (\.\.\.)?"([^]*)"(?:\.\.\.)? is not valid JSON$/.exec(parserWords);
  if (!token) return undefined;
  const [, character, cutBefore, quoted] = token as unknown as [string, string, string | undefined, string];
  const quoteAt = text.indexOf(quoted);
  // A quote found more than once (a file of runs repeats itself) tells no one place: none is named.
  if (quoteAt < 0 || text.indexOf(quoted, quoteAt + 1) >= 0) return undefined;
  if (cutBefore) return quoteAt + quotedBefore;
  const at = text.indexOf(character, quoteAt);
  return at < 0 ? undefined : at;
}

/** How much of the text before an unexpected character V8 quotes. */
const quotedBefore = 10;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${plainIssue(issue)}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more problems)` : '';
  return `${shown.join('; ')}${more}.`;
}

/**
 * What is wrong with a field, in words a person reads ("longer than 20,000 characters"), where the
 * checker's own are its ("Too big: expected string to have <=20000 characters"); the schema's own
 * messages ("not a date") stay as written.
 */
function plainIssue(issue: z.core.$ZodIssue): string {
  const count = (value: number | bigint) => value.toLocaleString('en-US');
  switch (issue.code) {
    case 'invalid_type':
      if (issue.message.endsWith('received undefined')) return 'missing';
      return issue.message.startsWith('Invalid input') ? `not ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}` : issue.message;
    case 'too_big':
      if (!issue.message.startsWith('Too big')) return issue.message;
      if (issue.origin === 'string') return `longer than ${count(issue.maximum)} characters`;
      if (issue.origin === 'array') return `more than ${count(issue.maximum)} items`;
      return `above ${count(issue.maximum)}`;
    case 'too_small':
      if (!issue.message.startsWith('Too small')) return issue.message;
      if (issue.origin === 'string') return issue.minimum === 1 ? 'empty' : `shorter than ${count(issue.minimum)} characters`;
      if (issue.origin === 'array') return `fewer than ${count(issue.minimum)} items`;
      return `below ${count(issue.minimum)}`;
    case 'invalid_value': {
      if (!issue.message.startsWith('Invalid')) return issue.message;
      const refused = typeof issue.input === 'string' || typeof issue.input === 'number' ? `${quoted(issue.input)} is ` : '';
      return `${refused}not one of ${issue.values.map(valueInWords).join(', ')}`;
    }
    default:
      return issue.message;
  }
}

/** A hand-edited value as the file writes it, cut short: the notice names it, it need not hold it. */
function quoted(value: string | number): string {
  const written = JSON.stringify(value);
  return written.length <= 42 ? written : `${written.slice(0, 40)}…"`;
}

/** A value a field takes, as the file writes it; an outcome with the name the viewer gives it. */
function valueInWords(value: unknown): string {
  const written = JSON.stringify(value);
  return typeof value === 'string' && isTraceOutcome(value) ? `${written} (${outcomeLabel(value)})` : written;
}

/**
 * Whether a file's start holds what no text has: control characters other than tabs and line
 * breaks, as images, archives and PDFs have in their first bytes. Not U+FFFD: the viewer's own
 * export writes it as it is, where a request or an answer held one.
 */
function notText(input: string): boolean {
  return /[\u0000-\u0008\u000e-\u001f]/.test(input.slice(0, 1_024));
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the file';
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('');
}

async function findInconsistency(traces: readonly StoredTrace[], now: number, nextSlice: NextSlice): Promise<string | undefined> {
  const ids = new Set<string>();
  for (const [index, trace] of traces.entries()) {
    const { run, steps } = trace;
    if (ids.has(run.id)) return `runs[${index}]: the run ${run.id} appears twice.`;
    ids.add(run.id);
    for (const [stepIndex, step] of steps.entries()) {
      if (step.runId !== run.id) return `runs[${index}].steps[${stepIndex}]: the step belongs to another run.`;
      // A run keeps its steps in order (the viewer shows them, and a replay plays them, as listed),
      // so a step's number is above the one before it: a copy of an earlier step is out of order too.
      const previous = steps[stepIndex - 1]?.step;
      if (previous === step.step) return `runs[${index}].steps[${stepIndex}]: step ${step.step} appears twice.`;
      if (previous !== undefined && step.step < previous) return `runs[${index}].steps[${stepIndex}]: step ${step.step} comes after step ${previous}.`;
    }
    // A recorder numbers a run's steps from 1 with none left out: one taken out of the file would
    // still be counted in the list (by the highest step), and its time would pass for the next step's.
    const missing = steps.findIndex(({ step }, stepIndex) => step !== stepIndex + 1);
    if (missing !== -1) return `runs[${index}].steps[${missing}]: step ${missing + 1} is missing (the run goes on with step ${steps[missing]!.step}).`;
    const problem = checkTraceContent(trace, now);
    if (problem) return `runs[${index}].${problem}`;
    await nextSlice();
  }
  return undefined;
}
