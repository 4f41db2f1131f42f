import { createOpenAiEngine } from '../lib/engines/openai/openai-engine';
import type { Settings } from '../lib/settings';
import { startFakeOllama } from '../tests/engines/support/fake-ollama-server';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const requests = 50;

/**
 * What each request costs a model server before its reply: the HTTP requests the OpenAI-compatible
 * engine sends (its load, the chat, any ask for the context), and how long its load takes, against
 * a fake Ollama on this machine (a real server elsewhere adds its round trips to each).
 */
export async function benchServerRequests(): Promise<BenchSection> {
  const server = await startFakeOllama({ replies: Array.from({ length: requests + 1 }, () => 'Hello.') });
  try {
    // Only what the engine reads of the settings.
    const settings = { engine: 'openai', openaiBaseUrl: server.address, openaiApiKey: '', model: 'qwen3:1.7b', temperature: 0.2 } as Settings;
    const engine = createOpenAiEngine(settings);
    await engine.load(() => {});
    const loads: number[] = [];
    const sent: number[] = [];
    for (let request = 0; request < requests; request += 1) {
      const before = server.origins.length;
      const started = performance.now();
      await engine.load(() => {});
      loads.push(performance.now() - started);
      for await (const _ of engine.model.stream({ messages: [{ role: 'user', content: 'Hi' }], tools: [], signal: new AbortController().signal }));
      // The context is asked for after a reply without waiting: let it reach the server.
      await new Promise((resolve) => setTimeout(resolve, 20));
      sent.push(server.origins.length - before);
    }
    const at = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * share)]!;
    return {
      title: 'A model server: HTTP requests and load time per request',
      rows: [
        {
          requests,
          'HTTP requests per request (median)': at(sent, 0.5),
          'load, median ms': at(loads, 0.5).toFixed(2),
          'load, p90 ms': at(loads, 0.9).toFixed(2),
        },
      ],
      notes: ['After a first load; each request loads, then streams a short reply, as a run does. The server is a fake Ollama on this machine.'],
    };
  } finally {
    await server.close();
  }
}

await runDirectly(import.meta.url, benchServerRequests);
