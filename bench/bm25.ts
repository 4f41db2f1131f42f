import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { ToolScorer } from '@webmcp-agents/local-agent';
import { bm25StopWords } from './bm25-stop-words';

/** The usual BM25 constants, as the eval README's baseline uses them. */
const k1 = 1.2;
const b = 0.75;

/**
 * A plain BM25 baseline over each tool's name (split on `_ . -` and camelCase), description, and
 * top-level parameter names and descriptions. Text is lower-cased and cut into runs of letters,
 * digits and `_` (the `\w+` of most BM25 scripts, so `user_id` in prose stays one word), with
 * `bm25StopWords` removed; each distinct query word counts once; idf is Lucene's
 * ln(1 + (N − n + ½)/(n + ½)). It ignores `recent`: it is a pure retrieval baseline.
 */
export const bm25Scorer: ToolScorer = (tools, query) => {
  const index = indexOf(tools);
  const queryTerms = new Set(textTerms(typeof query === 'string' ? query : ''));
  const scores = new Array<number>(tools.length).fill(0);
  for (const term of queryTerms) {
    const postings = index.postings.get(term);
    if (postings === undefined) continue;
    const idf = Math.log(1 + (tools.length - postings.length + 0.5) / (postings.length + 0.5));
    for (const { tool, count } of postings) {
      const lengthRatio = index.lengths[tool]! / index.averageLength;
      scores[tool]! += (idf * count * (k1 + 1)) / (count + k1 * (1 - b + b * lengthRatio));
    }
  }
  return scores;
};

interface Bm25Index {
  /** For each term, the tools that contain it and how often. */
  postings: Map<string, Array<{ tool: number; count: number }>>;
  lengths: number[];
  averageLength: number;
}

// Indexing a pool costs far more than a query; a benchmark ranks many queries against one pool.
const indexByToolList = new WeakMap<readonly ToolDescriptor[], Bm25Index>();

function indexOf(tools: readonly ToolDescriptor[]): Bm25Index {
  const cached = indexByToolList.get(tools);
  if (cached !== undefined && cached.lengths.length === tools.length) return cached;
  const index: Bm25Index = { postings: new Map(), lengths: [], averageLength: 0 };
  tools.forEach((tool, toolIndex) => {
    const terms = documentTerms(tool);
    index.lengths.push(terms.length);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, count] of counts) {
      const postings = index.postings.get(term) ?? [];
      postings.push({ tool: toolIndex, count });
      index.postings.set(term, postings);
    }
  });
  const totalLength = index.lengths.reduce((sum, length) => sum + length, 0);
  index.averageLength = tools.length > 0 ? totalLength / tools.length || 1 : 1;
  indexByToolList.set(tools, index);
  return index;
}

function documentTerms(tool: ToolDescriptor): string[] {
  const terms = [...nameTerms(tool.name), ...textTerms(tool.description)];
  const properties = tool.inputSchema?.properties;
  if (typeof properties !== 'object' || properties === null) return terms;
  for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
    terms.push(...nameTerms(name));
    const description = (schema as { description?: unknown } | null)?.description;
    terms.push(...textTerms(description));
  }
  return terms;
}

function nameTerms(name: unknown): string[] {
  if (typeof name !== 'string') return [];
  const spaced = name
    .replace(/[_.-]/g, ' ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return textTerms(spaced);
}

function textTerms(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  const words = text.toLowerCase().match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
  return words.filter((word) => !bm25StopWords.has(word));
}
