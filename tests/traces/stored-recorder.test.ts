import { describe, expect, it, vi } from 'vitest';
import type { LanguageModel } from '@webmcp-agents/local-agent';
import { createReplayEngine } from '@/lib/engines/replay-engine';
import { createStoredRecorder, type StoredRecorderOptions } from '@/lib/traces/stored-recorder';
import { createTraceFile } from '@/lib/traces/trace-file';
import { storedTraceSchema } from '@/lib/traces/trace-schema';
import { defaultTraceSettings, type TraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import { recordShopRun } from './support/record-run';
import { createShopPage, shopReplies } from './support/shop-page';
import { createTestService } from './support/test-service';
import { openTestStore } from './support/trace-stores';

const settings = (change: Partial<TraceSettings> = {}) => async () => ({ ...defaultTraceSettings, ...change });

async function recordedShopTrace() {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: settings() });
  await recordShopRun({ recorder, runId: 'run-1' });
  await recorder.flush();
  return { store, trace: (await store.getTrace('run-1'))! };
}

describe('the stored recorder', () => {
  it('keeps the shop run: request, steps, tools with scores, prompt, raw output, calls, results and timings', async () => {
    const { trace } = await recordedShopTrace();
    expect(trace.run).toMatchObject({ id: 'run-1', origin: 'https://shop.example', outcome: 'answer', stepCount: 4, request: 'Put two enamel mugs in my cart' });
    expect(trace.run.answer).toBe('I added two enamel mugs (12 each) to your cart.');
    expect(trace.steps.map((step) => step.step)).toEqual([1, 2, 3, 4]);
    const [first, , third] = trace.steps;
    expect(first!.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['search_products', 'open_product']));
    expect(first!.tools.every((tool) => typeof tool.score === 'number')).toBe(true);
    expect(first!.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(first!.messages[0]!.content).toContain('<tools>');
    expect(first!.raw).toContain('<think>The person wants mugs.</think>');
    expect(first!.prose).toBe('I will look for the mug.\n');
    expect(first!.parsed?.calls).toEqual([{ name: 'search_products', arguments: { query: 'mug' } }]);
    expect(first!.calls[0]).toMatchObject({ callId: '1.1', name: 'search_products', result: { text: '{"products":["enamel-mug"]}' } });
    expect(first!.modelMs).toBeGreaterThanOrEqual(0);
    expect(third!.tools.map((tool) => tool.name)).toContain('add_to_cart');
    expect(third!.calls[0]?.approval).toMatchObject({ approved: true });
    expect(trace.run.sizeBytes).toBeGreaterThan(1_000);
  });

  it('writes records that its own schema reads back unchanged (schema round trip)', async () => {
    const { trace } = await recordedShopTrace();
    const parsed = storedTraceSchema().parse(JSON.parse(JSON.stringify(trace)));
    expect(parsed).toEqual(trace);
  });

  it('writes the changes of a run in a few batches, not one record per streamed delta', async () => {
    const store = await openTestStore();
    const writes: number[] = [];
    const counting: TraceStore = { ...store, write: (runs, steps) => (writes.push(runs.length + steps.length), store.write(runs, steps)) };
    const recorder = createStoredRecorder({ store: counting, loadSettings: settings() });
    let deltas = 0;
    await recordShopRun({ recorder: { ...recorder, record: (runId, event) => (deltas += Number(event.type === 'text-delta'), recorder.record(runId, event)) }, runId: 'run-batched', startedAt: 1 });
    await recorder.flush();
    expect(deltas).toBeGreaterThan(60);
    expect(writes.length).toBeLessThanOrEqual(2);
    expect(writes.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(6);
  });

  it('cuts a huge tool result to the trace limit and says how long it was', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings() });
    const page = createShopPage();
    const huge = { ...page, executeTool: async () => ({ text: 'x'.repeat(50_000) }) };
    await recordShopRun({ recorder, runId: 'run-huge', page: huge, replies: ['<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>', 'Done.'] });
    await recorder.flush();
    const result = (await store.getTrace('run-huge'))!.steps[0]!.calls[0]!.result!;
    expect(result.length).toBe(50_000);
    expect(result.text.length).toBe(20_000);
    expect(result.text).toMatch(/\(cut: \d+ more characters\)$/);
  });

  it('keeps how much of each result the model read, where the prompt carried only part of it', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings() });
    const page = createShopPage();
    const long = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => (name === 'search_products' ? { text: 'mug '.repeat(1_500) } : page.executeTool(name, args)) };
    const replies = ['<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>\n<tool_call>{"name": "open_product", "arguments": {"slug": "enamel-mug"}}</tool_call>', 'Done.'];
    await recordShopRun({ recorder, runId: 'run-read', page: long, replies, toolOutputLimit: 1_000 });
    await recorder.flush();
    const trace = (await store.getTrace('run-read'))!;
    const [search, open] = trace.steps[0]!.calls;
    expect(search!.result!.length).toBe(6_000);
    expect(search!.read).toEqual({ characters: 1_000, of: 6_000 });
    // A result the model read whole says nothing.
    expect(open!.result!.text).toContain('enamel-mug');
    expect(open!.read).toBeUndefined();
    expect(storedTraceSchema().parse(JSON.parse(JSON.stringify(trace)))).toEqual(trace);
  });

  it('marks a run cut off by a stopped service worker as interrupted, keeping its steps so far', async () => {
    const store = await openTestStore();
    const before = createStoredRecorder({ store, loadSettings: settings() });
    // The worker stops while the model writes its third reply: the run never ends.
    const replay = createReplayEngine(shopReplies, { chunkSize: 3 });
    let stepThreeStarted!: () => void;
    const atStepThree = new Promise<void>((resolve) => (stepThreeStarted = resolve));
    const model: LanguageModel = {
      async *stream(request) {
        if (replay.requests.length < 2) return yield* replay.stream(request);
        yield { type: 'text-delta', text: 'It is in ' };
        stepThreeStarted();
        await new Promise(() => {});
      },
    };
    void recordShopRun({ recorder: before, runId: 'run-cut', model, leaveUnfinished: true });
    await atStepThree;
    await before.flush();
    expect((await store.getTrace('run-cut'))!.run.outcome).toBeUndefined();

    const after = createStoredRecorder({ store, loadSettings: settings() });
    await after.ready;
    const trace = (await store.getTrace('run-cut'))!;
    expect(trace.run.outcome).toBe('interrupted');
    expect(trace.run.endedAt).toBe(trace.run.updatedAt);
    expect(trace.steps.map((step) => [step.step, step.complete])).toEqual([[1, true], [2, true], [3, false]]);
    expect(trace.steps[1]!.calls[0]).toMatchObject({ name: 'open_product', result: { text: expect.stringContaining('enamel-mug') } });
    expect(trace.steps[2]!.raw).toBe('It is in ');
  });

  it('keeps a reply the model was still writing when the run was cut off, marked incomplete', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings() });
    recorder.startRun({ runId: 'run-mid', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'webllm', model: 'Qwen3', request: 'mugs', startedAt: 1_000 });
    recorder.record('run-mid', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'mugs' }] });
    recorder.record('run-mid', { type: 'text-delta', step: 1, text: 'I will ' });
    recorder.record('run-mid', { type: 'text-delta', step: 1, text: 'search' });
    await recorder.flush();
    await createStoredRecorder({ store, loadSettings: settings() }).ready;
    const trace = (await store.getTrace('run-mid'))!;
    expect(trace.run.outcome).toBe('interrupted');
    expect(trace.steps[0]).toMatchObject({ raw: 'I will search', complete: false });
  });

  it('removes the oldest runs first once more than the last N are kept', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings({ maxRuns: 3 }) });
    for (let index = 1; index <= 5; index += 1) {
      await recordShopRun({ recorder, runId: `run-${index}`, startedAt: index * 1_000, replies: ['Nothing to do.'] });
    }
    await recorder.flush();
    expect((await store.listRuns()).map((run) => run.id)).toEqual(['run-5', 'run-4', 'run-3']);
  });

  it('removes the oldest runs first once the kept runs pass M megabytes', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings({ maxMegabytes: 1 }) });
    const page = createShopPage();
    // Each run keeps a result of 20,000 characters in each of 2 steps: about 40 kB a run.
    const bulky = { ...page, executeTool: async () => ({ text: 'y'.repeat(30_000) }) };
    const replies = ['<tool_call>{"name": "search_products", "arguments": {"query": "a"}}</tool_call>', '<tool_call>{"name": "search_products", "arguments": {"query": "b"}}</tool_call>', 'Done.'];
    for (let index = 1; index <= 30; index += 1) {
      await recordShopRun({ recorder, runId: `run-${String(index).padStart(2, '0')}`, startedAt: index * 1_000, page: bulky, replies });
    }
    await recorder.flush();
    const kept = await store.listRuns();
    const total = kept.reduce((sum, run) => sum + run.sizeBytes, 0);
    expect(total).toBeLessThanOrEqual(1024 * 1024);
    expect(kept.length).toBeLessThan(30);
    expect(kept.map((run) => run.id)).toEqual(Array.from({ length: kept.length }, (_, index) => `run-${String(30 - index).padStart(2, '0')}`));
  });

  it('tells open viewers of a run once it is first stored, and once it is stored as ended, not at every write between', async () => {
    const store = await openTestStore();
    // What the stored run was each time the recorder told of a change.
    const told: (string | undefined)[] = [];
    const runsChanged = () => void store.getTrace('told').then((trace) => told.push(trace ? (trace.run.outcome ?? 'running') : 'absent'));
    const recorder = createStoredRecorder({ store, loadSettings: settings(), runsChanged });
    recorder.startRun({ runId: 'told', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: '', request: 'find a mug', startedAt: 5 });
    await recorder.flush();
    await vi.waitFor(() => expect(told).toEqual(['running']));
    recorder.record('told', { type: 'step-start', step: 1, messages: [], tools: [] });
    recorder.record('told', { type: 'text-delta', step: 1, text: 'Looking.' });
    await recorder.flush();
    recorder.endRun('told', 'answer', 9);
    await recorder.flush();
    await vi.waitFor(() => expect(told).toEqual(['running', 'answer']));
  });

  it('never lets a recorder fault reach the run, and ignores events of runs it never started', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings() });
    expect(() => recorder.record('no-such-run', { type: 'text-delta', step: 1, text: 'x' })).not.toThrow();
    expect(() => recorder.endRun('no-such-run', 'answer', 1)).not.toThrow();
    recorder.startRun({ runId: 'odd', tabId: 1, url: '', origin: '', engineId: 'replay', model: '', request: 'x', startedAt: 5 });
    recorder.endRun('odd', 'something-new', 9);
    await recorder.flush();
    expect((await store.getTrace('odd'))!.run).toMatchObject({ outcome: 'error', endedAt: 9 });
  });

  it('counts a run in UTF-8 bytes, its record included: a run on a Japanese page counts at least what its export takes', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: settings() });
    const page = createShopPage();
    const japanese = 'エナメルマグカップ、在庫あり。'.repeat(1_200);
    const shop = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => ({ text: japanese + (await page.executeTool(name, args)).text }) };
    await recordShopRun({ recorder, runId: 'jp', page: shop, request: 'エナメルマグを2つカートに入れて' });
    await recorder.flush();
    const trace = (await store.getTrace('jp'))!;
    const fileBytes = new TextEncoder().encode(JSON.stringify(createTraceFile([trace]))).length;
    expect(trace.run.sizeBytes).toBeGreaterThanOrEqual(fileBytes - 200);
    expect(trace.run.sizeBytes).toBeLessThan(fileBytes + 1_000);
  });

  /** A run 'r' recorded on a clock the test moves, and how it reads once the next worker marked it interrupted. */
  async function runOnClock(options: Pick<StoredRecorderOptions, 'streamFlushDelayMs' | 'waitBeatMs'>) {
    const store = await openTestStore();
    const startedAt = Date.UTC(2025, 4, 1);
    let clock = startedAt;
    // A stopped worker writes nothing more: its timers died with it.
    let stopped = false;
    const workerStore: TraceStore = { ...store, write: (runs, steps) => (stopped ? Promise.resolve() : store.write(runs, steps)) };
    const recorder = createStoredRecorder({ store: workerStore, loadSettings: settings(), now: () => clock, ...options });
    recorder.startRun({ runId: 'r', tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'webllm', model: 'm', request: 'q', startedAt });
    recorder.record('r', { type: 'step-start', step: 1, tools: [], messages: [] });
    return {
      recorder,
      at: (ms: number) => (clock = startedAt + ms),
      async afterWorkerStops() {
        await recorder.flush();
        stopped = true;
        await createStoredRecorder({ store, loadSettings: settings() }).ready;
        return (await store.getTrace('r'))!.run;
      },
    };
  }

  it('ends a run cut off while the model was writing at its last streamed token, not when the step began', async () => {
    const { recorder, at, afterWorkerStops } = await runOnClock({ streamFlushDelayMs: 0 });
    for (let second = 1; second <= 40; second += 1) {
      at(second * 1_000);
      recorder.record('r', { type: 'text-delta', step: 1, text: 'word ' });
      await recorder.flush();
    }
    const run = await afterWorkerStops();
    expect(run.outcome).toBe('interrupted');
    expect(run.endedAt! - run.startedAt).toBe(40_000);
  });

  it('ends a run cut off while a call waited for the person about when it was cut off, not when it asked', async () => {
    const { recorder, at, afterWorkerStops } = await runOnClock({ waitBeatMs: 5 });
    recorder.record('r', { type: 'tool-call', step: 1, callId: '1.1', name: 'buy', arguments: {} });
    recorder.record('r', { type: 'tool-approval-request', step: 1, callId: '1.1', name: 'buy', reason: 'consequential' });
    // The person reads the card for half a minute; then the worker stops.
    at(30_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const run = await afterWorkerStops();
    expect(run.outcome).toBe('interrupted');
    expect(run.endedAt! - run.startedAt).toBe(30_000);
    // Its beat goes with the run.
    recorder.endRun('r', 'interrupted', Date.now());
  });

  it('trims runs an import pushed past the megabyte limit as soon as the next run ends', async () => {
    const store = await openTestStore();
    const limits = settings({ maxMegabytes: 1 });
    const recorder = createStoredRecorder({ store, loadSettings: limits });
    const recent = Date.now() - 3_600_000;
    await recordShopRun({ recorder, runId: 'first', startedAt: recent });
    await recorder.flush();
    // Ten older runs of about 200 kB each, from a file.
    const base = (await store.getTrace('first'))!;
    const runs = Array.from({ length: 10 }, (_, index) => {
      const id = `imported-${index}`;
      const steps = base.steps.map((step) => ({ ...step, runId: id, messages: [{ role: 'user' as const, content: 'x'.repeat(50_000) }] }));
      return { run: { ...base.run, id, startedAt: recent - 60_000 * (index + 1) }, steps };
    });
    const { service } = createTestService(store);
    expect(await service.handle({ type: 'traces-import', file: createTraceFile(runs) })).toMatchObject({ ok: true, data: { imported: 10, kept: 0 } });
    expect((await store.listRuns()).reduce((sum, run) => sum + run.sizeBytes, 0)).toBeGreaterThan(1024 * 1024);

    await recordShopRun({ recorder, runId: 'next' });
    await recorder.flush();
    await recorder.flush();
    const kept = await store.listRuns();
    expect(kept.reduce((sum, run) => sum + run.sizeBytes, 0)).toBeLessThanOrEqual(1024 * 1024);
    expect(kept.map((run) => run.id).slice(0, 2)).toEqual(['next', 'first']);
  });
});
