import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Bytes of one entry bundled and minified for the browser, as the extension's build would. */
async function bundleSize(entry: string, external: string[] = []): Promise<{ bytes: number; gzipped: number }> {
  const result = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    external,
    logLevel: 'silent',
    alias: {
      '@webmcp-agents/local-agent': resolve(root, 'lib/local-agent/index.ts'),
      '@webmcp-agents/chat': resolve(root, 'lib/chat/index.ts'),
      '@': root,
    },
  });
  const code = result.outputFiles[0]!.contents;
  return { bytes: code.byteLength, gzipped: gzipSync(code).byteLength };
}

const kilobytes = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} kB`;

/**
 * What the engines cost in the service worker's bundle: WebLLM cannot be loaded lazily there (no
 * `import()` in a service worker), so all of it ships in `background.js`.
 */
export async function benchEngines(): Promise<BenchSection> {
  const entries = [
    { name: 'all engines (createEngine), with WebLLM', entry: 'lib/engines/create-engine.ts', external: [] },
    { name: 'all engines, WebLLM left out', entry: 'lib/engines/create-engine.ts', external: ['@mlc-ai/web-llm'] },
    { name: 'Prompt API engine alone', entry: 'lib/engines/prompt-api/prompt-api-engine.ts', external: [] },
    { name: 'local server engine alone', entry: 'lib/engines/openai/openai-engine.ts', external: [] },
  ];
  const sizes: { bytes: number; gzipped: number }[] = [];
  for (const { entry, external } of entries) sizes.push(await bundleSize(entry, external));
  const rows = entries.map(({ name }, index) => ({
    bundle: name,
    minified: kilobytes(sizes[index]!.bytes),
    gzipped: kilobytes(sizes[index]!.gzipped),
  }));
  const webllm = { bytes: sizes[0]!.bytes - sizes[1]!.bytes, gzipped: sizes[0]!.gzipped - sizes[1]!.gzipped };
  return {
    title: 'Engine bundle sizes (esbuild, minified)',
    rows,
    notes: [`WebLLM itself, the difference between the first two rows: ${kilobytes(webllm.bytes)} (${kilobytes(webllm.gzipped)} gzipped).`],
  };
}

await runDirectly(import.meta.url, benchEngines);
