import type { ToolDescriptor } from '@webmcp-agents/chat';
import { toolFieldNames, type ToolFieldName } from './tool-fields';
import type { ToolTerms } from './tool-terms';

/** How much each field counts, and how strongly its length is normalised (BM25F). */
export type FieldSettings = Record<ToolFieldName, { weight: number; lengthNormalisation: number }>;

/** Where a term occurs: tool positions and their length-normalised, field-weighted frequencies. */
export interface Posting {
  tools: number[];
  frequencies: number[];
}

/** A tool list prepared for search: postings, inverse document frequencies, prefix groups. */
export interface ToolIndex {
  /** The terms of each tool it was built from, to tell whether a list changed in place. */
  toolTerms: readonly ToolTerms[];
  postings: Map<string, Posting>;
  idf: Map<string, number>;
  /** Terms of the list grouped by their first letters, for the prefix match. */
  byPrefix: Map<string, string[]>;
  /** The distinct terms of each tool's name, in list order. */
  nameTerms: (readonly string[])[];
}

/** Builds the index of a tool list from each tool's (cached) terms. */
export function buildToolIndex(
  tools: readonly ToolDescriptor[],
  termsOf: (tool: ToolDescriptor) => ToolTerms,
  fields: FieldSettings,
  prefixLength: number,
): ToolIndex {
  const allTerms = Array.from(tools, termsOf);
  const averageLengths = averageFieldLengths(allTerms);
  const postings = new Map<string, Posting>();
  allTerms.forEach((toolTerms, position) => {
    for (const [term, frequency] of weightedFrequencies(toolTerms, fields, averageLengths)) {
      let posting = postings.get(term);
      if (!posting) postings.set(term, (posting = { tools: [], frequencies: [] }));
      posting.tools.push(position);
      posting.frequencies.push(frequency);
    }
  });
  const idf = new Map<string, number>();
  const byPrefix = new Map<string, string[]>();
  for (const [term, posting] of postings) {
    const count = posting.tools.length;
    idf.set(term, Math.log(1 + (tools.length - count + 0.5) / (count + 0.5)));
    if (term.length < prefixLength) continue;
    const prefix = term.slice(0, prefixLength);
    const group = byPrefix.get(prefix);
    if (group) group.push(term);
    else byPrefix.set(prefix, [term]);
  }
  const nameTerms = allTerms.map((toolTerms) => [...toolTerms.name.counts.keys()]);
  return { toolTerms: allTerms, postings, idf, byPrefix, nameTerms };
}

function averageFieldLengths(allTerms: readonly ToolTerms[]): Record<ToolFieldName, number> {
  const averages = {} as Record<ToolFieldName, number>;
  for (const field of toolFieldNames) {
    let total = 0;
    for (const toolTerms of allTerms) total += toolTerms[field].length;
    averages[field] = allTerms.length === 0 ? 0 : total / allTerms.length;
  }
  return averages;
}

// BM25F: each field's count, normalised by that field's length, weighted, summed per term.
function weightedFrequencies(
  toolTerms: ToolTerms,
  fields: FieldSettings,
  averageLengths: Record<ToolFieldName, number>,
): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const field of toolFieldNames) {
    const { weight, lengthNormalisation } = fields[field];
    const { counts, length } = toolTerms[field];
    if (weight <= 0 || length === 0) continue;
    const average = averageLengths[field] || 1;
    const norm = 1 - lengthNormalisation + lengthNormalisation * (length / average);
    for (const [term, count] of counts) {
      frequencies.set(term, (frequencies.get(term) ?? 0) + (weight * count) / norm);
    }
  }
  return frequencies;
}
