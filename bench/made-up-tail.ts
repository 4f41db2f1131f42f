import { hermesFormat, runLocalAgent, type AgentEvent } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../lib/engines/replay-engine';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

/** A small model on a laptop GPU: about 40 tokens a second, a token taken as four characters. */
const msPerToken = 25;
const charactersPerToken = 4;

const ownTurn = 'Looking for mugs.\n<tool_call>\n{"name": "search_products", "arguments": {"query": "mug"}}\n</tool_call>\n';
/** What a small model that runs past its call goes on to write: the page's answer, made up, and more dialogue. */
const madeUpTail = `<tool_response>\n{"results": [{"slug": "gold-mug", "name": "Gold Mug", "price": 1}]}\n</tool_response>\n${'The Gold Mug costs 1 USD. Shall I add it to your cart?\n<|im_start|>user\nYes, add two.<|im_end|>\n'.repeat(12)}`;

/** One run whose first reply makes up a tool result: the tokens the model wrote for it, and when the page's tool ran. */
async function runOnce(): Promise<{ tokens: number; toolAfterMs: number; stepMs: number }> {
  const events: AgentEvent[] = [];
  let toolAt = 0;
  const started = performance.now();
  await runLocalAgent({
    request: 'Which mugs are there?',
    model: createReplayEngine([ownTurn + madeUpTail, 'There are four mugs.'], { chunkSize: charactersPerToken, delayMs: msPerToken }),
    format: hermesFormat,
    getTools: () => [{ name: 'search_products', description: 'Search the catalogue.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }],
    executeTool: async () => {
      toolAt ||= performance.now();
      return { text: '{"results": ["enamel-mug"]}' };
    },
    onEvent: (event) => void events.push(event),
  });
  const first = events.find((event) => event.type === 'step-end' && event.step === 1);
  if (first?.type !== 'step-end') throw new Error('The run ended before its first step did.');
  return { tokens: Math.ceil(first.raw.length / charactersPerToken), toolAfterMs: toolAt - started, stepMs: first.modelMs };
}

/**
 * A reply that goes on past its call to make up the tool's result: how much of it the model is
 * made to write, and how long the person waits before the page's tool runs.
 */
export async function benchMadeUpTail(): Promise<BenchSection> {
  const runs = [await runOnce(), await runOnce(), await runOnce()];
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
  return {
    title: 'A reply that makes up its tool result (replayed at 40 tokens/s)',
    rows: [
      {
        'tokens of the own turn': Math.ceil(ownTurn.length / charactersPerToken),
        'tokens the model would go on to write': Math.ceil(madeUpTail.length / charactersPerToken),
        'tokens written for the step': median(runs.map((run) => run.tokens)),
        'ms of the step (model)': Math.round(median(runs.map((run) => run.stepMs))),
        'ms until the page\'s tool runs': Math.round(median(runs.map((run) => run.toolAfterMs))),
      },
    ],
    notes: [
      `A replay engine stands in for the model, one token (${charactersPerToken} characters) every ${msPerToken} ms; medians of three runs.`,
    ],
  };
}

await runDirectly(import.meta.url, benchMadeUpTail);
