import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Bytes of one entry bundled and minified for the browser, as the extension's build would. */
async function bundleSize(entry: string): Promise<{ bytes: number; gzipped: number }> {
  const result = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
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
 * What the engines cost the service worker: their code is in `background.js`, read at each start
 * of the worker; WebLLM's is a script apart (`webllm.js`), read only to load a model (see
 * `lib/engines/webllm/webllm-script.ts`).
 */
export async function benchEngines(): Promise<BenchSection> {
  const entries = [
    { name: 'all engines (createEngine), as the background holds them', entry: 'lib/engines/create-engine.ts' },
    { name: 'WebLLM (webllm.js), read only to load a model', entry: 'node_modules/@mlc-ai/web-llm/lib/index.js' },
    { name: 'Prompt API engine alone', entry: 'lib/engines/prompt-api/prompt-api-engine.ts' },
    { name: 'local server engine alone', entry: 'lib/engines/openai/openai-engine.ts' },
  ];
  const sizes: { bytes: number; gzipped: number }[] = [];
  for (const { entry } of entries) sizes.push(await bundleSize(entry));
  const rows = entries.map(({ name }, index) => ({
    bundle: name,
    minified: kilobytes(sizes[index]!.bytes),
    gzipped: kilobytes(sizes[index]!.gzipped),
  }));
  return { title: 'Engine bundle sizes (esbuild, minified)', rows };
}

await runDirectly(import.meta.url, benchEngines);
