// `npm run bench [name …]`: runs the benchmarks and writes their tables into bench/RESULTS.md
// (between the generated markers), with the command and the machine they ran on.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyFiguresStay, type BenchSection } from './bench-section';
import { formatBenchSection } from './format-bench-section';

type Bench = () => Promise<BenchSection | BenchSection[]>;

const benches: Record<string, () => Promise<Bench>> = {
  parse: async () => (await import('./parse')).benchParse,
  retrieval: async () => (await import('./retrieval')).benchRetrieval,
  'rank-speed': async () => (await import('./rank-speed')).benchRankSpeed,
  ranker: async () => (await import('./ranker')).benchRanker,
  'prompt-size': async () => (await import('./prompt-size')).benchPromptSize,
  loop: async () => (await import('./loop')).benchLoop,
  discovery: async () => (await import('./discovery')).benchDiscovery,
  extension: async () => (await import('./extension')).benchExtension,
  'content-scripts': async () => (await import('./content-scripts')).benchContentScripts,
  engines: async () => (await import('./engines')).benchEngines,
  traces: async () => (await import('./traces')).benchTraces,
  volume: async () => (await import('./volume')).benchVolume,
  'long-blocks': async () => (await import('./long-blocks')).benchLongBlocks,
  inspector: async () => (await import('./inspector')).benchInspector,
  'session-writes': async () => (await import('./session-writes')).benchSessionWrites,
  'made-up-tail': async () => (await import('./made-up-tail')).benchMadeUpTail,
  'server-requests': async () => (await import('./server-requests')).benchServerRequests,
  'worker-starts': async () => (await import('./worker-starts')).benchWorkerStarts,
  'slow-cpu': async () => (await import('./slow-cpu')).benchSlowCpu,
  'site-lists': async () => (await import('./site-lists')).benchSiteLists,
};

const requested = process.argv.slice(2);
const names = requested.length ? requested : Object.keys(benches);
const unknown = names.filter((name) => !(name in benches));
if (unknown.length) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}.`);
  process.exit(2);
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const parts: string[] = [];
for (const name of names) {
  console.error(`Running ${name}…`);
  try {
    const sections = [await (await benches[name]!())()].flat();
    const text = sections.map(formatBenchSection).join('\n\n');
    console.log(text);
    // A bench that measured nothing, or only part (its data is missing here), must not erase the figures on record.
    const stay = whyFiguresStay(sections);
    if (stay) {
      console.error(`The ${name} benchmark did not write bench/RESULTS.md, which keeps its figures: ${stay}.`);
      continue;
    }
    parts.push(`<!-- bench:${name} -->\n${text}\n<!-- /bench:${name} -->`);
  } catch (error) {
    console.error(`The ${name} benchmark failed:`, error);
    process.exitCode = 1;
  }
}

const resultsPath = resolve(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
let results = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '# Benchmark results\n';
for (const part of parts) {
  const name = /<!-- bench:(.+?) -->/.exec(part)![1]!;
  const stamped = part.replace(
    '\n',
    `\n_Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench ${name}\` on ${machine}._\n\n`,
  );
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  results = pattern.test(results) ? results.replace(pattern, () => stamped) : `${results.trimEnd()}\n\n${stamped}\n`;
}
writeFileSync(resultsPath, results);
console.error(`Wrote ${resultsPath}.`);
