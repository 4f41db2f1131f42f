import { defaultInstructions, estimateTokens, hermesFormat, rankTools } from '@webmcp-agents/local-agent';
import { readSharedEval } from '../tests/support/shared-eval';
import type { BenchSection } from './bench-section';
import { qwenTokens } from './qwen-tokens';
import { otherLanguages, otherScripts } from './language-samples';
import { rankSetNames, readRankSet } from './rank-sets';

/**
 * How `estimateTokens` compares with the Qwen3 tokenizer on each kind of text a prompt holds: the
 * system prompt with ranked tools, requests and descriptions (English and Chinese), model replies
 * from the shared corpus, short texts in other languages and scripts (bench/language-samples.ts),
 * and what page tools return (generated: page text, tables of numbers, product lists, ids, links,
 * markdown, base64). Below 1 the estimate counts fewer tokens than the model reads.
 */
export function benchTokenEstimate(): BenchSection {
  const rows = Object.entries(textsByKind()).map(([kind, texts]) => {
    const ratios = texts.map((text) => estimateTokens(text) / qwenTokens(text).length).sort((a, b) => a - b);
    const estimated = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
    const read = texts.reduce((sum, text) => sum + qwenTokens(text).length, 0);
    return {
      text: kind,
      texts: texts.length,
      'Qwen3 tokens': read,
      estimate: estimated,
      'estimate / Qwen3': ratio(estimated / read),
      'lowest, one text': ratio(ratios[0]!),
      'tenth percentile': ratio(ratios[Math.floor(ratios.length / 10)]!),
      'old estimate / Qwen3': ratio(texts.reduce((sum, text) => sum + oldEstimate(text), 0) / read),
    };
  });
  return {
    title: 'Token estimate against the Qwen3 tokenizer',
    rows,
    notes: [
      'The agent counts tokens with `estimateTokens` to fit the shown tools, the tool results and the history to a model\'s context; counting too few overflows the context (WebLLM then stops the run), too many leaves out what would have fit.',
      'Old estimate: three ASCII characters a token, any other character a token (the agent\'s count before 2026-12-01).',
      'Page results are generated with a fixed seed (`bench/token-estimate.ts`); the texts in other languages and scripts were written for this bench; the rest are the shared eval files.',
    ],
  };
}

/** The texts the estimate is measured on, by kind. */
export function textsByKind(): Record<string, string[]> {
  const kinds: Record<string, string[]> = { 'system prompt, 8 ranked tools': [], 'English requests and descriptions': [], 'Chinese descriptions': [], 'model replies': [] };
  for (const name of rankSetNames) {
    const set = readRankSet(name);
    if (!set) continue;
    for (const query of set.queries.slice(0, 40)) {
      kinds['system prompt, 8 ranked tools']!.push(hermesFormat.systemPrompt(rankTools(set.pool, query.query, { max: 8 }), defaultInstructions));
      kinds['English requests and descriptions']!.push(query.query);
    }
    for (const tool of set.pool) {
      const description = tool.description ?? '';
      const other = description.replace(/[\x00-\x7f]/g, '').length;
      if (other > description.length * 0.4) kinds['Chinese descriptions']!.push(description);
      else if (other === 0 && description.length > 80) kinds['English requests and descriptions']!.push(description);
    }
  }
  for (const sample of readSharedEval<Array<{ raw: string }>>('toolcalls.json') ?? []) kinds['model replies']!.push(sample.raw);
  return { ...kinds, 'other Latin-script languages': otherLanguages, 'other scripts': otherScripts, ...pageResults() };
}

/** What page tools return, generated with a fixed seed: 30 of each kind, 5 to 44 entries long. */
function pageResults(): Record<string, string[]> {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  const pick = <T>(items: ArrayLike<T>) => items[Math.floor(random() * items.length)]!;
  const hex = (length: number) => Array.from({ length }, () => pick('0123456789abcdef')).join('');
  const words = 'blue cotton shirt size order shipping address delivery price total account balance meeting room calendar event flight hotel booking seat station ticket'.split(' ');
  const kinds: Record<string, string[]> = { 'result: page text (textContent)': [], 'result: tables of numbers (JSON)': [], 'result: product lists (JSON)': [], 'result: ids and hashes (JSON)': [], 'result: links': [], 'result: markdown': [], 'result: base64': [] };
  for (let index = 0; index < 30; index += 1) {
    const length = 5 + Math.floor(random() * 40);
    const indent = index % 2 ? 2 : undefined;
    const rows = (make: (row: number) => unknown) => JSON.stringify(Array.from({ length }, (_, row) => make(row)), null, indent);
    const numbers = [
      (row: number) => ({ date: `2026-${String(1 + (row % 12)).padStart(2, '0')}-${String(1 + (row % 28)).padStart(2, '0')}`, open: round(100 + random() * 50), close: round(100 + random() * 50), volume: Math.floor(random() * 1e7) }),
      () => ({ lat: Number((random() * 90).toFixed(6)), lon: Number((random() * 180).toFixed(6)) }),
      () => ({ t: 1_700_000_000_000 + Math.floor(random() * 1e10), v: random() }),
      () => [Math.floor(random() * 1000), Math.floor(random() * 1000), Math.floor(random() * 1000)],
      (row: number) => ({ id: Math.floor(random() * 1e6), score: Number((random() * 10).toFixed(1)), rank: row + 1 }),
    ];
    // A page's text as `textContent` gives it: markup's indents and blank lines kept.
    kinds['result: page text (textContent)']!.push(
      Array.from({ length }, () => `\n      <li>\n        ${pick(words)} ${pick(words)}\n        \n          ${round(random() * 200)} EUR\n        \n      </li>`.replace(/<\/?li>/g, '')).join(''),
    );
    kinds['result: tables of numbers (JSON)']!.push(rows(numbers[index % numbers.length]!));
    kinds['result: product lists (JSON)']!.push(
      rows(() => ({ sku: `SKU-${Math.floor(random() * 99_999)}`, title: `${pick(words)} ${pick(words)} ${pick(words)}`, price: round(random() * 200), currency: 'EUR', inStock: random() > 0.3 })),
    );
    kinds['result: ids and hashes (JSON)']!.push(rows(() => ({ id: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`, sha: hex(40) })));
    kinds['result: links']!.push(
      Array.from({ length }, () => `https://www.example-${pick(words)}.com/${pick(words)}/${Math.floor(random() * 99_999)}?ref=${hex(6)}&q=${pick(words)}+${pick(words)}`).join('\n'),
    );
    kinds['result: markdown']!.push(
      Array.from({ length }, (_, row) => `## ${pick(words)} ${row}\n\n- **${pick(words)}**: ${pick(words)} ${pick(words)}, ${Math.floor(random() * 100)} ${pick(words)}\n| ${pick(words)} | ${(random() * 100).toFixed(1)}% |`).join('\n'),
    );
    kinds['result: base64']!.push(Array.from({ length: 200 + Math.floor(random() * 2000) }, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')).join(''));
  }
  return kinds;
}

function oldEstimate(text: string): number {
  const other = text.replace(/[\x00-\x7f]/g, '').length;
  return Math.ceil((text.length - other) / 3) + other;
}

const round = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number) => value.toFixed(2);
