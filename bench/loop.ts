import type { ToolDescriptor } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, searchScorer, type AgentEvent, type ToolScorer } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../lib/engines/replay-engine';
import type { BenchSection } from './bench-section';
import { readRankSet } from './rank-sets';
import { runDirectly } from './run-directly';

const steps = 3;

/** Milliseconds the loop itself spends per step (model time excluded: replies are replayed at once). */
async function msPerStep(tools: ToolDescriptor[], options: { scorer?: ToolScorer; onEvent?: (event: AgentEvent) => void; runs: number }) {
  const target = tools[0]!;
  const reply = (page: number) => `Checking.<tool_call>\n{"name": "${target.name}", "arguments": {"page": ${page}}}\n</tool_call>`;
  const run = () =>
    runLocalAgent({
      request: `Please ${target.description.slice(0, 80).toLowerCase()}`,
      model: createReplayEngine([reply(1), reply(2), 'All done, here is your answer.'], { chunkSize: 4 }),
      format: hermesFormat,
      getTools: () => tools,
      executeTool: async () => ({ text: '{"ok":true}' }),
      scorer: options.scorer,
      onEvent: options.onEvent,
      // As the extension runs it: the shown tools and results are fitted to a 4,096-token context.
      contextTokens: 4_096,
    });
  for (let warm = 0; warm < 20; warm += 1) await run();
  const started = performance.now();
  for (let index = 0; index < options.runs; index += 1) await run();
  return (performance.now() - started) / (options.runs * steps);
}

export async function benchLoop(): Promise<BenchSection> {
  const set = readRankSet('rank-bfcl.json');
  if (!set) return { title: 'Agent loop overhead', rows: [], notes: ['Skipped: the shared evaluation data is missing.'] };
  const rows: Array<Record<string, string | number>> = [];
  for (const count of [20, 200]) {
    const tools = set.pool.slice(0, count);
    const plain = await msPerStep(tools, { runs: 200 });
    const events: AgentEvent[] = [];
    const recorded = await msPerStep(tools, { runs: 200, onEvent: (event) => void events.push(event) });
    const search = await msPerStep(tools, { runs: 200, scorer: searchScorer });
    rows.push({
      tools: count,
      'ms per step (documented scorer)': plain.toFixed(3),
      'ms per step, events kept in memory': recorded.toFixed(3),
      "ms per step (the extension's ranker)": search.toFixed(3),
      target: '≤ 5 ms at 200 tools',
    });
  }
  return {
    title: 'Agent loop overhead per step (replay engine, no model time; 3-step runs)',
    rows,
    notes: ['Includes ranking, prompt building, streaming 4-character chunks through the prose filter, parsing, validation and a tool call that answers at once.'],
  };
}

await runDirectly(import.meta.url, benchLoop);
