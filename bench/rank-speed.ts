import { performance } from 'node:perf_hooks';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { compactSchema, rankTools } from '@webmcp-agents/local-agent';
import type { BenchSection } from './bench-section';
import { readRankSet } from './rank-sets';
import { runDirectly } from './run-directly';
import { sharedEvalAvailable, sharedEvalMissingMessage } from '../tests/support/shared-eval';

/** Timed rounds per figure; the median of them is reported. */
const rounds = 21;

type ToolLists = ToolDescriptor[][];

/**
 * `rankTools` time per query over 20 and over 500 real MCP tools (the first of rank-mcp's pool,
 * its 90 task queries in turn) in three situations, and `compactSchema` over the whole pool.
 * Medians of several rounds after a warm-up round; preparing the tool lists is not timed.
 */
export async function benchRankSpeed(): Promise<BenchSection> {
  const set = sharedEvalAvailable ? readRankSet('rank-mcp.json') : null;
  if (set === null) return { title: 'rankTools speed', rows: [], notes: [sharedEvalMissingMessage] };
  const queries = set.queries.map((query) => query.query);
  const rows: Array<Record<string, string | number>> = [];
  for (const size of [20, 500]) {
    const tools = set.pool.slice(0, size);
    const situations: Array<[string, () => ToolLists]> = [
      ['same objects', () => queries.map(() => tools)],
      ['re-read (structured clones)', () => queries.map(() => structuredClone(tools))],
      ['first sight (new text)', () => queries.map(() => withNewText(tools))],
    ];
    for (const [situation, prepare] of situations) {
      const timing = measure(prepare, (lists) => rankEach(lists, queries));
      rows.push(row(`rankTools, ${size} tools, ${situation}`, timing, queries.length));
    }
  }
  const schemas = set.pool.map((tool) => tool.inputSchema);
  const compacting = measure(() => [], () => schemas.forEach(compactSchema));
  rows.push(row(`compactSchema, all ${schemas.length} schemas`, compacting, 1));
  return {
    title: 'rankTools and compactSchema speed (per call)',
    rows,
    notes: [
      'same objects: one step of a run; re-read: the tools copied afresh for every query, as the ' +
        'background gets them at each step (words are kept by text, so only compaction is redone);',
      'first sight: every description is text never seen before, so every tool is split again.',
      'CPU µs is the process’s own CPU time: steadier than wall time when the machine is busy.',
      `Node ${process.version}; ${rounds} rounds after a warm-up round.`,
    ],
  };
}

function rankEach(lists: ToolLists, queries: readonly string[]): void {
  queries.forEach((query, index) => rankTools(lists[index]!, query, { max: 8 }));
}

let textSerial = 0;

/** The tools with a new serial number appended to each description. */
function withNewText(tools: readonly ToolDescriptor[]): ToolDescriptor[] {
  textSerial += 1;
  return tools.map((tool) => ({ ...tool, description: `${tool.description} #${textSerial}` }));
}

interface Timing {
  wallMicroseconds: number;
  cpuMicroseconds: number;
}

/** Median wall and CPU time of `work` in µs; `prepare` runs untimed before each round. */
function measure<Input>(prepare: () => Input, work: (input: Input) => void): Timing {
  work(prepare());
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const input = prepare();
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    work(input);
    wall.push((performance.now() - start) * 1000);
    const used = process.cpuUsage(cpuStart);
    cpu.push(used.user + used.system);
  }
  return { wallMicroseconds: median(wall), cpuMicroseconds: median(cpu) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function row(label: string, timing: Timing, calls: number): Record<string, string | number> {
  const perCall = (microseconds: number) => Math.round((10 * microseconds) / calls) / 10;
  return {
    case: label,
    'median wall µs': perCall(timing.wallMicroseconds),
    'median CPU µs': perCall(timing.cpuMicroseconds),
  };
}

await runDirectly(import.meta.url, benchRankSpeed);
