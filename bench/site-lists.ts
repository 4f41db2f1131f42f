import { agentOffBy, agentOffOn } from '../lib/settings/agent-off-on';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

/** The tools of one page, each of whose sites a step checks against the list. */
const toolsPerStep = 100;

/** Milliseconds per call of `check`, the median of five rounds of `rounds` calls. */
function timed(check: () => void, rounds: number): number {
  check();
  const samples = Array.from({ length: 5 }, () => {
    const started = performance.now();
    for (let round = 0; round < rounds; round += 1) check();
    return (performance.now() - started) / rounds;
  });
  return samples.sort((a, b) => a - b)[2]!;
}

/**
 * The sites where the agent is off, checked as a request checks them: a step's tools against the
 * list its settings brought (each tool's site in turn), a call against a copy of the list read
 * again (the settings loaded anew), and the panel's entries that cover the site.
 */
export async function benchSiteLists(): Promise<BenchSection> {
  const rows = [10, 1_000, 20_000].map((count) => {
    const list = Array.from({ length: count }, (_, index) => `https://site-${index}.example`);
    return {
      'sites listed': count.toLocaleString('en-US'),
      [`ms for a step's ${toolsPerStep} tools (one list)`]: timed(() => {
        for (let tool = 0; tool < toolsPerStep; tool += 1) agentOffOn(list, `https://tools-${tool}.shop.example`);
      }, 10).toFixed(2),
      'ms for a call (the list read again)': timed(() => agentOffOn([...list], 'https://shop.example'), 20).toFixed(2),
      "ms for the panel's covering entries (read again)": timed(() => agentOffBy([...list], 'https://shop.example'), 20).toFixed(2),
    };
  });
  return {
    title: 'Sites where the agent is off: the checks of a request (Node)',
    rows,
    notes: ['Medians of five rounds. A list is read once (each entry parsed as an address) and kept while it, or a copy of it, is in use.'],
  };
}

await runDirectly(import.meta.url, benchSiteLists);
