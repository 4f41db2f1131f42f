import { describe, expect, it, vi } from 'vitest';
import { hermesFormat, type ModelChunk } from '@webmcp-agents/local-agent';
import { createEngineHost } from '../../lib/agent/engine-host';
import { createLoadForOptions } from '../../lib/agent/load-for-options';
import type { ModelLoadNews } from '../../lib/agent/model-load-port';
import { serveModelLoad } from '../../lib/agent/serve-model-load';
import type { Engine } from '../../lib/engines/engine';
import type { Channel } from '../../lib/messaging/port-channel';
import { defaultSettings, type Settings } from '../../lib/settings';

const model = 'Qwen3-1.7B-q4f32_1-MLC';

/** A model on the GPU that loads at once and answers with `chunks`, each after `gapMs`, until its signal stops it. */
function gpuEngine(chunks: ModelChunk[], gapMs = 0) {
  const requests: string[] = [];
  // How many chunks the model wrote: a stopped reply writes no more.
  const written = { count: 0 };
  let loads = 0;
  const engine: Engine = {
    id: 'webllm',
    holdsGpu: true,
    modelId: model,
    format: hermesFormat,
    async load() {
      // Loaded again (a trial reads it loaded before it asks): a moment, in which another tab may ask for its model.
      loads += 1;
      if (loads > 1 && gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs * 3));
    },
    model: {
      async *stream(request) {
        requests.push(String(request.messages.at(-1)?.content));
        for (const chunk of chunks) {
          if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
          if (request.signal.aborted) return;
          written.count += 1;
          yield chunk;
        }
      },
    },
  };
  return { engine, requests, written };
}

/** The worker's end of an options page's port: what it posts, and the page closing it. */
function pagePort() {
  const posted: ModelLoadNews[] = [];
  const gone: (() => void)[] = [];
  let open = true;
  const channel: Channel<ModelLoadNews, never> = {
    post: (news) => void (open && posted.push(news)),
    onMessage: () => {},
    onDisconnect: (listener) => void gone.push(listener),
    disconnect: () => {},
  };
  return { channel, posted, close: () => ((open = false), gone.forEach((listener) => listener())) };
}

function serve(engine: Engine, trial: boolean, create: (settings: Settings) => Engine = () => engine) {
  const engines = createEngineHost(() => {}, create);
  const load = createLoadForOptions({ loadSettings: async () => ({ ...defaultSettings, engine: 'webllm', model }), engines, watchStatus: () => () => {}, loaded: () => {} });
  const port = pagePort();
  return { ...port, engines, served: serveModelLoad(port.channel, load, { trial }) };
}

describe("the worker's side of the options page's Try it for WebLLM", () => {
  it('loads the model, then has it answer the trial in the worker, telling the page the reply as it comes and how fast', async () => {
    const { engine, requests } = gpuEngine([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' there!' },
      { type: 'usage', usage: { completionTokens: 3, decodeTokensPerSecond: 12.5 } },
    ]);
    const { posted, served } = serve(engine, true);
    await served;
    expect(posted.find((news) => news.type === 'ended')).toMatchObject({ outcome: 'loaded' });
    expect(requests).toEqual(['Say hello to the person in one short sentence.']);
    const trials = posted.flatMap((news) => (news.type === 'trial' ? [news.trial] : []));
    expect(trials.at(-1)).toEqual({ running: false, thinking: false, reply: 'Hello there!', usage: { completionTokens: 3, decodeTokensPerSecond: 12.5 } });
    expect(trials.some((trial) => trial.running && trial.reply === 'Hello')).toBe(true);
  });

  it("holds the model while it answers: another tab's request for another model waits for the trial's end", async () => {
    // How much of the reply the model had written when it was unloaded.
    const writtenAtUnload: number[] = [];
    const trialModel = gpuEngine(Array.from({ length: 5 }, () => ({ type: 'text-delta' as const, text: 'word ' })), 20);
    trialModel.engine.unload = async () => void writtenAtUnload.push(trialModel.written.count);
    const other = { ...gpuEngine([]).engine, modelId: 'Qwen3-0.6B-q4f32_1-MLC' };
    const { posted, served, engines } = serve(trialModel.engine, true, (settings) => (settings.model === model ? trialModel.engine : other));
    // Loaded, and not answering yet: another tab asks for another model.
    await vi.waitFor(() => expect(posted.some((news) => news.type === 'ended')).toBe(true));
    const request = engines.load({ ...defaultSettings, engine: 'webllm', model: other.modelId }, new AbortController().signal, { hold: true, tabId: 2 });
    await served;
    await request;
    expect(writtenAtUnload).toEqual([5]);
    expect(posted.flatMap((news) => (news.type === 'trial' ? [news.trial] : [])).at(-1)).toMatchObject({ running: false, reply: 'word word word word word ' });
  });

  it('only loads for Download now', async () => {
    const { engine, requests } = gpuEngine([{ type: 'text-delta', text: 'Hello!' }]);
    const { posted, served } = serve(engine, false);
    await served;
    expect(posted.map((news) => news.type)).toEqual(['ended']);
    expect(requests).toEqual([]);
  });

  it('tells the page the load failed, rather than leave it waiting, where something in the worker throws', async () => {
    const port = pagePort();
    await serveModelLoad(port.channel, () => Promise.reject(new Error('storage gone')), { trial: true });
    expect(port.posted).toEqual([{ type: 'ended', outcome: 'failed', status: expect.objectContaining({ state: 'error', error: 'The model could not load: storage gone' }) }]);
  });

  it('stops the reply when the page closes its port', async () => {
    const { engine, written } = gpuEngine(Array.from({ length: 50 }, () => ({ type: 'text-delta' as const, text: 'word ' })), 10);
    const { posted, served, close } = serve(engine, true);
    await vi.waitFor(() => expect(posted.some((news) => news.type === 'trial' && news.trial.reply !== '')).toBe(true));
    close();
    await served;
    expect(written.count).toBeLessThan(10);
  });
});
