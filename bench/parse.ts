// `npx tsx bench/parse.ts`: how fast parseToolCalls and the prose filter are, on real model output
// and on hostile input, and how soon the fence holder shows an answer's code.
import { judgeFences } from '../lib/local-agent/ask-model';
import { createFencedCallHolder } from '../lib/local-agent/fenced-call-holder';
import { parseToolCalls } from '../lib/local-agent/parse-tool-calls';
import { createOwnTurn } from '../lib/local-agent/own-turn';
import { createProseFilter } from '../lib/local-agent/prose-filter';
import { readSharedEval } from '../tests/support/shared-eval';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

interface CorpusCase {
  raw: string;
  tool_names: string[];
}

const KB32 = 32 * 1024;
const SAMPLES = 5;
const names = new Set(['search_products', 'open_product', 'add_to_cart', 'f']);

/** Median milliseconds per call of `work`, each sample repeating it for about `sampleMs`. */
function timePerCall(work: () => void, sampleMs = 40, warmUpMs = 100): number {
  let repeats = 1;
  for (let started = performance.now(); performance.now() - started < warmUpMs; ) {
    for (let index = 0; index < repeats; index += 1) work();
    if (repeats < 1 << 20) repeats *= 2;
  }
  repeats = Math.max(1, repeats >> 4);
  const samples: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample += 1) {
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < sampleMs) {
      for (let index = 0; index < repeats; index += 1) work();
      count += repeats;
    }
    samples.push((performance.now() - started) / count);
  }
  return median(samples);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const megabytesPerSecond = (characters: number, ms: number) => characters / 1e6 / (ms / 1000);

/** About 32 KB of ordinary prose with one call near the end, as a long answer would be. */
function realisticReply(): string {
  const sentence =
    'The Trail Cap comes in three sizes, weighs 80 g and is [rated 4.6](https://shop.example/trail-cap) by 212 buyers. ';
  const prose = sentence.repeat(Math.floor((KB32 - 200) / sentence.length));
  return `${prose}<tool_call>{"name": "open_product", "arguments": {"slug": "trail-cap"}}</tool_call>`;
}

/** 32 KB of one fragment, repeated: unclosed tags and brackets that a naive parser chokes on. */
function adversarialInputs(): Array<[string, string]> {
  const fill = (fragment: string, prefix = '') => prefix + fragment.repeat(Math.ceil((KB32 - prefix.length) / fragment.length));
  return [
    ['unclosed <tool_call>', fill('<tool_call>')],
    ['{', fill('{')],
    ['[', fill('[')],
    ['"', fill('"')],
    ['(', fill('(')],
    ['<|tool_call_start|>[f(', fill('<|tool_call_start|>[f(')],
    ['<think>', fill('<think>')],
    ['<', fill('<')],
    ['<|tool_call_', fill('<|tool_call_')],
    ['{"a": in a call', fill('{"a": ', '<tool_call>{"name": "f", "arguments": ')],
    ['[f(a=[ in LFM2', fill('[f(a=', '<|tool_call_start|>')],
    ["quotes in a pythonic string", fill("'x", "<|tool_call_start|>[f(a='")],
    ['one broken pythonic call, repeated', fill("f(x='a' 'b), ", '<|tool_call_start|>[')],
    ['backslashes in a string', fill('\\', '<tool_call>{"name": "f", "arguments": {"a": "')],
    ['```', fill('```')],
    ['<function=', fill('<function=f>', '<tool_call>')],
    ['<x> wrappers', fill('<x>')],
  ];
}

/** A reply for the filter: prose, reasoning and calls, repeated to about 1 MB. */
function filterText(): string {
  const unit =
    '<think>The person wants a cap; search first.</think>Let me look that up for you. ' +
    '<tool_call>{"name": "search_products", "arguments": {"query": "trail cap"}}</tool_call>' +
    'Here is what I found: the **Trail Cap** (80 g, 3 sizes) at 24 €, and a < 20 € option too.\n';
  return unit.repeat(Math.ceil(1_000_000 / unit.length));
}

function chunk(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}

/** How fast a streaming stage (the prose filter, or the own-turn cut before it) takes a reply in these chunks. */
function filterMegabytesPerSecond(chunks: readonly string[], characters: number, create: () => { push(delta: string): string; flush(): string } = createProseFilter): number {
  let sink = 0;
  const ms = timePerCall(() => {
    const filter = create();
    for (const piece of chunks) sink += filter.push(piece).length;
    sink += filter.flush().length;
  }, 200);
  if (sink < 0) console.log(sink);
  return megabytesPerSecond(characters, ms);
}

type Row = Record<string, string | number>;

export async function benchParse(): Promise<BenchSection> {
  const corpus = readSharedEval<CorpusCase[]>('toolcalls.json');
  const replies = (corpus ?? []).map((testCase) => ({ raw: testCase.raw, names: new Set(testCase.tool_names) }));
  const inputs: Array<[string, string]> = [['32 KB of prose and one call', realisticReply()], ...adversarialInputs()];
  warmUp(() => {
    for (const reply of replies) parseToolCalls(reply.raw, reply.names);
    for (const [, input] of inputs) parseToolCalls(input, names);
  });
  const rows: Row[] = [];
  const notes: string[] = [];
  const leftOut = corpus === null ? ['the corpus row (toolcalls.json was not found beside the project)'] : [];
  if (corpus !== null) rows.push(corpusRow(replies));
  let worst = { label: '', ms: 0 };
  for (const [label, input] of inputs) {
    const ms = timePerCall(() => parseToolCalls(input, names));
    const realistic = label === inputs[0]?.[0];
    if (!realistic && ms > worst.ms) worst = { label, ms };
    rows.push({ measure: realistic ? label : `hostile 32 KB: ${label}`, value: ms.toFixed(4), unit: 'ms', target: realistic ? '≤ 0.05' : '≤ 1' });
  }
  rows.push(...filterRows(), ...fenceRows());
  notes.push(`Worst hostile input: ${worst.label}, ${worst.ms.toFixed(3)} ms.`);
  notes.push(`Median of ${SAMPLES} timed samples after a warm-up; 1 MB = 10^6 characters.`);
  return { title: 'Parsing model output', rows, notes, leftOut };
}

/** Every path the parser has, run for a while first, so that no row pays for compiling it. */
function warmUp(work: () => void): void {
  for (const started = performance.now(); performance.now() - started < 2000; ) work();
}

function corpusRow(replies: ReadonlyArray<{ raw: string; names: ReadonlySet<string> }>): Row {
  const characters = replies.reduce((sum, reply) => sum + reply.raw.length, 0);
  const ms = timePerCall(() => {
    for (const reply of replies) parseToolCalls(reply.raw, reply.names);
  });
  return { measure: `parseToolCalls, ${replies.length} corpus replies`, value: megabytesPerSecond(characters, ms), unit: 'MB/s', target: '' };
}

function filterRows(): Row[] {
  const text = filterText();
  const nearMisses = '<|im_x <|eot_i <start_of_tur <tool_respons '.repeat(Math.ceil(1_000_000 / 45));
  return [
    { measure: 'prose filter, 1-character chunks', value: filterMegabytesPerSecond(chunk(text, 1), text.length), unit: 'MB/s', target: '≥ 20' },
    { measure: 'prose filter, 16-character chunks', value: filterMegabytesPerSecond(chunk(text, 16), text.length), unit: 'MB/s', target: '≥ 50' },
    { measure: 'own-turn cut, 1-character chunks', value: filterMegabytesPerSecond(chunk(text, 1), text.length, createOwnTurn), unit: 'MB/s', target: '≥ 20' },
    { measure: 'own-turn cut, 16-character chunks', value: filterMegabytesPerSecond(chunk(text, 16), text.length, createOwnTurn), unit: 'MB/s', target: '≥ 50' },
    // Every `<` starts something that might be a chat-template token, and none is one.
    { measure: 'own-turn cut, 1 MB of <|im_ near misses, 16-character chunks', value: filterMegabytesPerSecond(chunk(nearMisses, 16), nearMisses.length, createOwnTurn), unit: 'MB/s', target: '' },
  ];
}

/**
 * The fence holder, judging blocks as a step does, on 1 MB of answers that are mostly code blocks
 * of 300 lines: how fast it takes them, and how far into the reply the first line of code shows
 * (a block that starts as no call shows as it streams; one that may be a call waits for its close).
 */
function fenceRows(): Row[] {
  const judge = judgeFences((reply) => parseToolCalls(reply, names), names, true);
  const answers = [
    ['Python', '```python\nimport json\n', 'print(json.dumps({"mug": 12}))\n'],
    ['JSON', '```json\n{"items": [\n', '{"name": "mug", "price": 12},\n'],
  ] as const;
  return answers.flatMap(([language, opening, line]) => {
    const answer = `Here it is:\n${opening}${line.repeat(300)}\`\`\`\n`;
    const text = answer.repeat(Math.ceil(1_000_000 / answer.length));
    const chunks = chunk(text, 16);
    let firstShown = 0;
    const create = () => {
      const holder = createFencedCallHolder(judge);
      let [pushed, shown] = [0, 0];
      return {
        push(piece: string) {
          const out = holder.push(piece);
          [pushed, shown] = [pushed + piece.length, shown + out.length];
          if (shown > 'Here it is:\n'.length + opening.length && firstShown === 0) firstShown = pushed;
          return out;
        },
        flush: () => holder.flush(),
      };
    };
    const speed = filterMegabytesPerSecond(chunks, text.length, create);
    return [
      { measure: `fence holder, 1 MB of ${language} blocks, 16-character chunks`, value: speed, unit: 'MB/s', target: '≥ 20' },
      { measure: `fence holder, ${language} block of ${answer.length.toLocaleString('en')} characters: its code first shown after`, value: firstShown, unit: 'characters', target: '' },
    ];
  });
}

await runDirectly(import.meta.url, benchParse);
