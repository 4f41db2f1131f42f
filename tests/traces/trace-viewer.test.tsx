// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'preact/test-utils';
import { noAnswerOutput } from '@/lib/registry/tool-output-from-result';
import type { LanguageModel } from '@webmcp-agents/local-agent';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { replyCutOff } from '@/lib/engines/engine';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { createTraceFile } from '@/lib/traces/trace-file';
import { defaultTraceSettings, loadTraceSettings, saveTraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import type { StoredTrace, TraceCall, TraceStep } from '@/lib/traces/trace-schema';
import { recordShopRun } from './support/record-run';
import { mountViewer, type MountedViewer } from './support/mount-viewer';
import { createShopPage, shopReplies } from './support/shop-page';
import { openTestStore } from './support/trace-stores';
import { runSearchId } from '@/components/traces/run-filters';

let viewer: MountedViewer | undefined;
afterEach(() => {
  viewer?.unmount();
  // The retention settings a test saved go with it.
  fakeBrowser.reset();
});

/** Runs are dated between 2020 and now, or an import refuses them. */
const recentTime = Date.now() - 24 * 60 * 60 * 1000;

async function storeWith(runs: Array<{ runId: string; request?: string; replies?: string[]; origin?: string }>): Promise<TraceStore> {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  for (const [index, run] of runs.entries()) {
    const page = { ...createShopPage(), ...(run.origin ? { origin: run.origin, url: `${run.origin}/` } : {}) };
    await recordShopRun({ recorder, runId: run.runId, request: run.request, replies: run.replies, page, startedAt: recentTime + (index + 1) * 60_000 });
  }
  await recorder.flush();
  return store;
}

/** `count` copies of one recorded run's record, "Request 0" the oldest: what the list shows of a run. */
async function storeWithCopies(count: number): Promise<TraceStore> {
  const store = await storeWith([{ runId: 'template' }]);
  const { run } = (await store.getTrace('template'))!;
  await store.deleteRuns(['template']);
  const copies = Array.from({ length: count }, (_, index) => ({ ...run, id: `copy-${index}`, request: `Request ${index}`, startedAt: run.startedAt + index * 1_000 }));
  await store.write(copies, []);
  return store;
}

const runIds = (mounted: MountedViewer) => mounted.findAll('run-item').map((item) => item.dataset.runId);
/** Where the list says a row stands: its place, and how many runs the list holds. */
const place = (mounted: MountedViewer, index: number) => ['aria-posinset', 'aria-setsize'].map((name) => mounted.findAll('run-item')[index]?.getAttribute(name));

describe('the trace viewer', () => {
  it('lists runs newest first, searchable by request text and filterable by site and outcome', async () => {
    const store = await storeWith([
      { runId: 'mugs', request: 'Put two enamel mugs in my cart' },
      { runId: 'hello', request: 'Say hello', replies: ['Hello!'], origin: 'https://other.example' },
      { runId: 'caps', request: 'Find a trail cap', replies: Array(4).fill('<tool_call>{"name": "search_products", "arguments": {"query": "cap"}}</tool_call>') },
    ]);
    viewer = await mountViewer(store);
    expect(runIds(viewer)).toEqual(['caps', 'hello', 'mugs']);
    expect(viewer.find('run-count')?.textContent).toBe('3 runs');

    await viewer.act(() => (viewer!.model.query.value = 'MUGS'));
    expect(runIds(viewer)).toEqual(['mugs']);
    await viewer.act(() => (viewer!.model.query.value = ''));
    const siteFilter = viewer.find('site-filter') as HTMLSelectElement;
    expect([...siteFilter.options].map((option) => option.value)).toEqual(['', 'https://other.example', 'https://shop.example']);
    // A secure site by its host, as the side panel names it: a narrow list shows more of it.
    expect([...siteFilter.options].map((option) => option.textContent)).toEqual(['All sites', 'other.example', 'shop.example']);
    await viewer.act(() => (viewer!.model.site.value = 'https://other.example'));
    expect(runIds(viewer)).toEqual(['hello']);
    await viewer.act(() => (viewer!.model.site.value = ''));
    await viewer.act(() => (viewer!.model.outcome.value = 'repeated-call'));
    expect(runIds(viewer)).toEqual(['caps']);
    expect(viewer.find('run-count')?.textContent).toBe('1 of 3 runs');
    // Said to a screen reader as the list narrows.
    expect(viewer.find('run-count')?.getAttribute('role')).toBe('status');
    expect(viewer.find('no-match')).toBeNull();

    // A search that leaves none says so, with the way back to every run.
    await viewer.act(() => (viewer!.model.query.value = 'teapot'));
    expect(runIds(viewer)).toEqual([]);
    expect(viewer.find('run-count')?.textContent).toBe('0 of 3 runs');
    expect(viewer.find('no-match')?.textContent).toBe('No run matches. Show all runs');
    await viewer.act(() => viewer!.find('show-all-runs')!.click());
    expect(runIds(viewer)).toEqual(['caps', 'hello', 'mugs']);
    expect([viewer.model.query.value, viewer.model.site.value, viewer.model.outcome.value]).toEqual(['', '', '']);
    expect(document.activeElement).toBe(viewer.find('run-search'));
  });

  it('finds runs by what went wrong with their calls, and by the words of their answers and notices, not only their requests', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const call = (name: string, args: Record<string, unknown>) => `<tool_call>{"name": "${name}", "arguments": ${JSON.stringify(args)}}</tool_call>`;
    const runs = [
      { runId: 'clean', replies: [call('search_products', { query: 'mug' }), 'The enamel mug is 12.'] },
      { runId: 'failed', replies: [call('open_product', { slug: 'teapot' }), 'There is no teapot.'] },
      { runId: 'declined', replies: [call('open_product', { slug: 'enamel-mug' }), call('add_to_cart', { qty: 2 }), 'You did not want it.'], approve: () => false },
      { runId: 'refused', replies: [call('fly_to_moon', {}), call('search_products', { query: 'cap' }), 'Caps are 9.'] },
    ];
    for (const [index, run] of runs.entries()) {
      await recordShopRun({ recorder, runId: run.runId, request: `Request ${run.runId}`, replies: run.replies, ...(run.approve ? { approve: run.approve } : {}), startedAt: recentTime + (index + 1) * 60_000 });
    }
    await recorder.flush();
    // A run an earlier version recorded, whose calls it did not sort.
    const { run: clean } = (await store.getTrace('clean'))!;
    const { callMarks: _none, ...unsorted } = clean;
    await store.write([{ ...unsorted, id: 'older', request: 'Request older', startedAt: clean.startedAt - 60_000 }], []);
    viewer = await mountViewer(store);
    expect(runIds(viewer)).toEqual(['refused', 'declined', 'failed', 'clean', 'older']);
    expect(viewer.find('calls-unsorted')).toBeNull();
    // Each row says what went wrong with its calls beside how the run ended ("Answered" all).
    expect(viewer.findAll('run-item').map((row) => row.querySelector('[data-testid=run-marks]')?.textContent ?? '')).toEqual(['bad call', 'call declined', 'tool failed', '', '']);
    const filter = viewer.find('calls-filter') as HTMLSelectElement;
    expect([...filter.options].map((option) => option.textContent)).toEqual(['Any calls', 'A tool failed', 'A call was declined', 'The model got a call wrong']);
    const shown = async (value: string) => {
      await viewer!.act(() => {
        filter.value = value;
        filter.dispatchEvent(new Event('change', { bubbles: true }));
      });
      return runIds(viewer!);
    };
    expect(await shown('failed')).toEqual(['failed']);
    expect(await shown('declined')).toEqual(['declined']);
    expect(await shown('refused')).toEqual(['refused']);
    expect(viewer.find('run-count')?.textContent).toBe('1 of 5 runs');
    // Left out, and said to be: not a run where nothing went wrong.
    expect(viewer.find('calls-unsorted')?.textContent).toBe('1 run from an earlier version is left out: its calls were not sorted then.');
    expect(await shown('')).toEqual(['refused', 'declined', 'failed', 'clean', 'older']);
    expect(viewer.find('calls-unsorted')).toBeNull();

    // The search reads the answers too.
    await viewer.act(() => (viewer!.model.query.value = 'no teapot'));
    expect(runIds(viewer)).toEqual(['failed']);
    expect(viewer.find('run-search')?.getAttribute('aria-label')).toBe('Search requests and answers');
    // "Show all runs" clears this filter too.
    await viewer.act(() => (viewer!.model.calls.value = 'declined'));
    expect(viewer.find('no-match')).not.toBeNull();
    await viewer.act(() => viewer!.find('show-all-runs')!.click());
    expect(runIds(viewer)).toHaveLength(5);
    expect(viewer.model.calls.value).toBe('');
  });

  it('shows every key in the search box at once, and narrows the list once typing pauses, not at each key', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'hat', request: 'Find a hat' }, { runId: 'hello', request: 'Say hello', replies: ['Hello!'] }, { runId: 'mugs' }]));
    const box = viewer.find('run-search') as HTMLInputElement;
    const listed: Array<Array<string | undefined>> = [];
    for (const text of ['h', 'ha', 'hat']) {
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      // Time enough for the page to draw a change, far less than a pause in typing.
      for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
      listed.push(runIds(viewer));
    }
    expect(listed).toEqual(Array(3).fill(['mugs', 'hello', 'hat']));
    await viewer.until(() => runIds(viewer!).length === 1, 'the search');
    expect(runIds(viewer)).toEqual(['hat']);
    expect(box.value).toBe('hat');
    expect(viewer.find('run-count')?.textContent).toBe('1 of 3 runs');
  });

  it('with no runs, says how they come and asks no one to choose one', async () => {
    viewer = await mountViewer(await storeWith([]));
    expect(viewer.container.textContent).toContain('No runs yet.');
    expect(viewer.container.querySelector('.detail-pane')?.textContent).toBe('');
  });

  it('shows the answer as the side panel does: its Markdown rendered, HTML and unsafe links kept as text', async () => {
    const answer = 'Done! Two **Trail Mugs, Forest Green** are in your cart.\n\n- [cart](https://shop.example/cart)\n- [pay](javascript:alert(1))\n\n<img src=x onerror=alert(1)>';
    viewer = await mountViewer(await storeWith([{ runId: 'markdown', request: 'Say done', replies: [answer] }]));
    await viewer.act(() => viewer!.model.open('markdown'));
    await viewer.until(() => viewer!.find('run-answer') !== null, 'the answer');
    const shown = viewer.find('run-answer')!;
    expect(shown.querySelector('strong')?.textContent).toBe('Trail Mugs, Forest Green');
    expect(shown.textContent).not.toContain('**');
    expect([...shown.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['cart (shop.example)', 'pay']);
    expect([...shown.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual(['https://shop.example/cart']);
    expect(shown.querySelector('img')).toBeNull();
    expect(shown.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('shows a run: its steps, scores, prompt, raw output with the calls highlighted, calls, results and timeline', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]));
    await viewer.click(viewer.find('run-item')!.querySelector('button'));
    await viewer.until(() => viewer!.find('run-detail') !== null, 'the run');
    expect(viewer.find('run-title')?.textContent).toBe('Put two enamel mugs in my cart');
    // The tab says which run it shows: a "Trace" link opens one tab a run.
    expect(document.title).toBe('Put two enamel mugs in my cart – Agent traces');
    // The engine as the side panel names it.
    expect(viewer.find('run-engine')?.textContent).toContain('Replay · recorded replies');
    expect(viewer.find('run-outcome')?.textContent).toBe('Answered');
    expect(viewer.find('run-answer-label')?.textContent).toBe('Answer');
    expect(viewer.find('run-answer')?.textContent?.trim()).toBe('I added two enamel mugs (12 each) to your cart.');
    // A request or an answer in Arabic or Hebrew reads right to left, as in the side panel.
    for (const shown of ['run-title', 'run-request']) expect(viewer.find(shown)?.getAttribute('dir'), shown).toBe('auto');
    // The answer reads as the side panel read it (see run-answer.test.tsx): this one, English, left to right.
    expect(viewer.find('run-answer')?.getAttribute('dir')).toBe('ltr');

    const steps = viewer.findAll('step');
    expect(steps.map((step) => step.dataset.step)).toEqual(['1', '2', '3', '4']);
    expect(viewer.find('step-summary', steps[0])?.textContent).toMatch(/^Step 1 · model \d+ ms · search_products$/);
    // A folded step has only its summary line; opening it builds the rest.
    expect(viewer.find('score-row', steps[0])).toBeNull();
    await viewer.openSteps();
    const rows = viewer.findAll('score-row', steps[0]);
    expect(rows.map((row) => row.dataset.tool)).toEqual(expect.arrayContaining(['search_products', 'open_product']));
    const scores = rows.map((row) => Number(viewer!.find('score', row)?.textContent));
    expect(scores.every((score) => Number.isFinite(score))).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(viewer.findAll('prompt-message', steps[0]).map((message) => message.dataset.role)).toEqual(['system', 'user']);
    expect(viewer.find('prompt-messages', steps[0])?.textContent).toContain('Put two enamel mugs in my cart');

    const raw = viewer.find('raw-output', steps[0])!;
    expect(raw.textContent).toBe('<think>The person wants mugs.</think>I will look for the mug.\n<tool_call>\n{"name": "search_products", "arguments": {"query":"mug"}}\n</tool_call>');
    expect([...raw.querySelectorAll('mark')].map((mark) => mark.dataset.part)).toEqual(['think', 'call']);
    expect([raw.getAttribute('role'), raw.getAttribute('aria-label')]).toEqual(['group', 'Raw output']);
    expect(raw.querySelector('[data-part="call"]')?.textContent).toContain('"search_products"');

    const call = viewer.find('call', steps[0])!;
    expect(call.dataset.name).toBe('search_products');
    expect(JSON.parse(viewer.find('call-arguments', call)!.textContent!)).toEqual({ query: 'mug' });
    expect(viewer.find('call-result', call)?.textContent).toBe('{"products":["enamel-mug"]}');
    // A box that scrolls is a stop for Tab in Chrome: each is named, not read out whole unnamed.
    expect(['call-arguments', 'call-result'].map((testId) => [viewer!.find(testId, call)?.getAttribute('role'), viewer!.find(testId, call)?.getAttribute('aria-label')])).toEqual([
      ['group', 'Arguments of search_products'],
      ['group', 'Result of search_products'],
    ]);
    expect(viewer.find('call-approval', viewer.find('call', steps[2])!)?.textContent).toMatch(/^Allowed after \d+ ms\.$/);

    expect(viewer.findAll('timeline-bar').filter((bar) => bar.dataset.kind === 'model').map((bar) => bar.dataset.step)).toEqual(['1', '2', '3', '4']);
    expect(viewer.findAll('timeline-bar').filter((bar) => bar.dataset.kind === 'tool')).toHaveLength(3);
    const totals = viewer.find('timeline-totals')!;
    expect([...totals.querySelectorAll('[data-total]')].map((row) => (row as HTMLElement).dataset.total)).toEqual(['total', 'model', 'tool', 'wait', 'between', 'tokens']);
  });

  /** The mugs run with its third step's call changed by `change`, shown in the viewer: that call. */
  async function showAskedCall(change: (step: TraceStep, call: TraceCall) => void): Promise<HTMLElement> {
    const store = await storeWith([{ runId: 'mugs' }]);
    const { run, steps } = (await store.getTrace('mugs'))!;
    change(steps[2]!, steps[2]!.calls[0]!);
    await store.write([run], steps);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.findAll('step').length === 4, 'the steps');
    await viewer.openSteps();
    return viewer.find('call', viewer.findAll('step')[2])!;
  }

  it('says of a question the page withdrew, by removing its tool, that no answer was needed, and why the call did not run', async () => {
    let message = '';
    const shown = await showAskedCall((step, asked) => {
      message = `The page removed the tool ${asked.name} while the user was being asked about this call, so it did not run.`;
      asked.approval = { askedAt: asked.calledAt, answeredAt: asked.calledAt + 2_000, approved: false, withdrawn: true };
      delete asked.result;
      step.problems.push({ kind: 'unknown-tool', callId: asked.callId, name: asked.name, message, withdrawn: true });
    });
    expect(viewer!.find('call-approval', shown)?.textContent).toBe('Asked; the page changed or removed the tool 2.0 s later, before an answer.');
    expect(viewer!.find('problem', shown)?.textContent).toBe(`Not run: ${message}`);
    // Not the model's fault: its label is not in the red of a mistake.
    expect(viewer!.find('problem-kind', shown)?.dataset.fault).toBe('false');
  });

  it('says of a question settled without an answer (the site allowed from another tab) that the call ran unanswered, and why', async () => {
    const because = 'the site was allowed while this question waited (in another tab, or in the options)';
    const shown = await showAskedCall((_step, asked) => {
      asked.approval = { askedAt: asked.calledAt, answeredAt: asked.calledAt + 677, approved: true, allowedBecause: because };
    });
    expect(viewer!.find('call-approval', shown)?.textContent).toBe(`Asked; ran 677 ms later without an answer: ${because}.`);
  });

  it('gives the timeline a table a screen reader can read, draws tool calls thinner than model time, and says in words which tool was called', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]));
    await viewer.act(() => viewer!.model.open('mugs'));
    // The picture is hidden from screen readers; the table says the same in words.
    expect(viewer.find('timeline')?.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    const rows = viewer.findAll('timeline-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
    expect(rows).toHaveLength(viewer.findAll('timeline-bar').length);
    expect(rows.find((row) => row[1] === 'Model')).toEqual(['1', 'Model', expect.stringMatching(/^model/), expect.stringMatching(/\d/), expect.stringMatching(/\d/)]);
    // The time before the replies is a part of its own, said with what it was.
    expect(rows.filter((row) => row[1] === 'Before the reply').map((row) => row[2])).toContain('before the first reply: the model loading, the page’s tools read');
    expect(rows.filter((row) => row[1] === 'Tool').map((row) => row[2])).toEqual(['search_products', 'open_product', 'add_to_cart']);
    expect(viewer.find('timeline-table')?.closest('.visually-hidden')).not.toBeNull();

    const heightOf = (kind: string) => new Set(viewer!.findAll('timeline-bar').filter((bar) => bar.dataset.kind === kind).map((bar) => Number(bar.getAttribute('height'))));
    expect([...heightOf('tool')][0]).toBeLessThan([...heightOf('model')][0]!);

    await viewer.openSteps();
    const firstStep = viewer.findAll('step')[0]!;
    const toolCell = (name: string) => firstStep.querySelector(`[data-testid="score-row"][data-tool="${name}"] td:nth-child(2)`)?.textContent;
    expect(toolCell('search_products')).toBe('search_products (called)');
    expect(toolCell('open_product')).toBe('open_product');
  });

  it('follows a run still going on: new steps appear as they are written, and the end shows in the list', async () => {
    const store = await openTestStore();
    const readFrom: Array<number | undefined> = [];
    const getTrace = store.getTrace.bind(store);
    store.getTrace = (runId, fromStep) => (readFrom.push(fromStep), getTrace(runId, fromStep));
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings, streamFlushDelayMs: 1 });
    const gate = () => {
      let resolve!: () => void;
      return { promise: new Promise<void>((done) => (resolve = done)), resolve: () => resolve() };
    };
    const gates = [gate(), gate()];
    let reply = 0;
    const model: LanguageModel = {
      async *stream() {
        const gate = gates[reply]!;
        reply += 1;
        yield { type: 'text-delta', text: reply === 1 ? 'Looking for mugs.' : 'Two mugs are in your cart.' };
        await gate.promise;
        if (reply === 1) yield { type: 'text-delta', text: '<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>' };
      },
    };
    const run = recordShopRun({ recorder, runId: 'live', model });
    await recorder.flush();
    viewer = await mountViewer(store, new Map(), 5);
    expect(viewer.find('run-item')?.dataset.outcome).toBe('running');
    await viewer.click(viewer.find('run-item')!.querySelector('button'));
    await viewer.until(() => viewer!.findAll('step').length === 1, 'the first step');
    // Still being written: not a reply cut off.
    expect(viewer.find('step-summary')?.textContent).toBe('Step 1 · being written');
    await viewer.openSteps();
    expect(viewer.find('cut-off-notice')?.textContent).toBe('The model is still writing this reply: what it wrote so far.');
    expect(viewer.find('no-calls')?.textContent).toBe('No call yet: the model is still writing.');

    gates[0]!.resolve();
    await viewer.until(() => viewer!.findAll('step').length === 2, 'the second step');
    // Its row in the list counts the steps the detail shows, though the list was not read again.
    await viewer.until(() => viewer!.find('run-item')?.textContent?.includes('2 steps') === true, 'the steps counted in the list');
    gates[1]!.resolve();
    await run;
    await viewer.until(() => viewer!.find('run-outcome')?.textContent === 'Answered', 'the end of the run');
    await viewer.until(() => viewer!.find('run-item')?.dataset.outcome === 'answer', 'the end in the list');
    expect(viewer.findAll('step').map((step) => step.dataset.step)).toEqual(['1', '2']);
    // Opened whole once; after that only the last step shown and what follows it are read again.
    expect(readFrom[0]).toBeUndefined();
    expect(readFrom.slice(1).every((from) => from === 1 || from === 2)).toBe(true);
    expect(readFrom.at(-1)).toBe(2);
  });

  it('shows page and model text as text, never as HTML', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    const hostile = {
      ...page,
      tools: () => page.tools().map((tool) => ({ ...tool, description: '<img src=x onerror="window.pwned=1"> search' })),
      executeTool: async () => ({ text: '<script>window.pwned=2</script><b>bold</b>' }),
    };
    await recordShopRun({ recorder, runId: 'hostile', page: hostile, request: '<i>hi</i>', replies: ['<tool_call>{"name": "search_products", "arguments": {"query": "<u>x</u>"}}</tool_call>', '<img src=y>'] });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('hostile'));
    await viewer.openSteps();
    expect(viewer.container.querySelectorAll('img, script, b, i, u')).toHaveLength(0);
    expect(viewer.find('run-title')?.textContent).toBe('<i>hi</i>');
    expect(viewer.find('call-result')?.textContent).toBe('<script>window.pwned=2</script><b>bold</b>');
    expect(viewer.container.textContent).toContain('<img src=x onerror="window.pwned=1"> search');
  });

  it('shows by its code each invisible character of a step: in a tool\'s description, the prompt, the reply and a call\'s problem', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    // The tag characters spell "pay" unseen; the model, reading them, echoes one back. A live run
    // takes them out of what the model reads: this trace is as an older build, or an import, keeps it.
    const hidden = '\u{E0070}\u{E0061}\u{E0079}';
    const sly = { ...page, tools: () => page.tools().map((tool) => ({ ...tool, description: `${tool.description}${hidden}` })) };
    await recordShopRun({
      recorder,
      runId: 'sly',
      page: sly,
      request: 'Find mugs',
      replies: ['Sure\u200b.<tool_call>{"name": "search\u200bproducts", "arguments": {}}</tool_call>', 'Done\u{E0070}.'],
    });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('sly'));
    await viewer.openSteps();
    const [first, second] = viewer.findAll('step');
    const codes = (element: Element | null | undefined) => [...(element?.querySelectorAll('.hidden-character') ?? [])].map((mark) => mark.getAttribute('data-code'));
    expect(codes(first!.querySelector('[data-testid="scores-table"] .description'))).toEqual(['U+E0070', 'U+E0061', 'U+E0079']);
    expect(codes(viewer.find('prompt-messages', first))).toContain('U+E0079');
    expect(codes(viewer.find('raw-output', first))).toEqual(['U+200B', 'U+200B']);
    // A call of a tool the page does not offer is a problem of the step, in the model's words.
    expect(codes(viewer.find('problem', first))).toEqual(['U+200B']);
    expect(codes(viewer.find('raw-output', second))).toEqual(['U+E0070']);
    expect(codes(viewer.find('parsed-prose', second))).toEqual(['U+E0070']);
    // The marks are drawn by the stylesheet: the text is the page's and the model's, as they wrote it.
    expect(viewer.find('raw-output', second)?.textContent).toBe('Done\u{E0070}.');
  });

  it('says under a result how much of it the model read, as the side panel\'s card does, where it read only part', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    const long = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => (name === 'search_products' ? { text: 'mug '.repeat(3_000) } : page.executeTool(name, args)) };
    const replies = ['<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>\n<tool_call>{"name": "open_product", "arguments": {"slug": "enamel-mug"}}</tool_call>', 'Done.'];
    await recordShopRun({ recorder, runId: 'long', page: long, replies, toolOutputLimit: 4_000 });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('long'));
    await viewer.openSteps();
    const [search, open] = viewer.findAll('call');
    expect(viewer.find('call-read', search)?.textContent).toBe('The model read the first 4,000 of 12,000 characters.');
    expect(viewer.find('call-read', open)).toBeNull();
    viewer.unmount();

    // A result the prompt had no room for at all.
    const trace = (await store.getTrace('long'))!;
    const [first] = trace.steps;
    await store.write([], [{ ...first!, calls: first!.calls.map((call) => (call.read ? { ...call, read: { characters: 0, of: call.read.of } } : call)) }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('long'));
    await viewer.openSteps();
    expect(viewer.find('call-read')?.textContent).toBe('The model read none of its 12,000 characters: the prompt had no room for them.');
  });

  it('says no answer came back for a call whose document went before its tool answered, not that the page returned', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    const gone = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => (name === 'search_products' ? noAnswerOutput(name, 2) : page.executeTool(name, args)) };
    await recordShopRun({ recorder, runId: 'gone', page: gone, replies: ['<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>', 'Done.'] });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('gone'));
    await viewer.openSteps();
    const [search] = viewer.findAll('call');
    expect(search?.querySelector('.call-result > p')?.textContent).toMatch(/^No answer came back after .+:$/);
    expect(viewer.find('call-result', search)?.textContent).toContain('The frame that offered "search_products" navigated, reloaded or was removed while it ran');
  });

  it('gives the size the page gave, not the size carried, of a result the extension cut to carry it', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    // What the content script passes on of a 2,457,790-character result: its first million, with the length it had.
    const carried = { text: 'mug '.repeat(250_000), fullLength: 2_457_790 };
    const huge = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => (name === 'search_products' ? carried : page.executeTool(name, args)) };
    await recordShopRun({ recorder, runId: 'huge', page: huge, replies: ['<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>', 'Done.'], toolOutputLimit: 4_000 });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('huge'));
    await viewer.openSteps();
    const [search] = viewer.findAll('call');
    expect(search?.querySelector('.call-result > p')?.textContent).toMatch(/^The page returned in .+ \(kept 20,000 of 2,457,790 characters\):$/);
    expect(viewer.find('call-read', search)?.textContent).toBe('The model read the first 4,000 of 2,457,790 characters.');
    const shown = viewer.find('call-result', search)?.textContent ?? '';
    expect(shown).toMatch(/^(mug )+… \(cut: \d+ more characters\)$/);
    // What was left out of what the page gave: all but the characters shown.
    const kept = shown.indexOf(' … (cut:');
    expect(Number(/cut: (\d+)/.exec(shown)?.[1])).toBe(2_457_790 - kept);
  });

  it('exports one run as a file that imports back identical, and refuses a malformed file with a clear message', async () => {
    const store = await storeWith([{ runId: 'mugs' }, { runId: 'hello', replies: ['Hello!'] }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.click(viewer.find('export-run'));
    await viewer.until(() => viewer!.downloads.length > 0, 'a download');
    expect(viewer.downloads).toHaveLength(1);
    expect(viewer.downloads[0]!.fileName).toMatch(/^trace-.*-mugs\.json$/);
    const exported = viewer.downloads[0]!.text;
    const before = await store.getTraces();

    await viewer.act(() => viewer!.model.importText('{"format": "webmcp-agent-traces", "version": 1, "exportedAt": 1, "runs": [{"run": {}}]}'));
    expect(viewer.find('notice')?.dataset.tone).toBe('error');
    expect(viewer.find('notice-text')?.textContent).toMatch(/^Nothing was imported\. The trace file is damaged: runs\[0\]\.run\.id: missing; .* \(and \d+ more problems\)\.$/);
    await viewer.act(() => viewer!.model.importText('not json at all'));
    expect(viewer.find('notice-text')?.textContent).toMatch(/^Nothing was imported\. This file is not a trace file: it is not JSON\. /);
    expect(await store.getTraces()).toEqual(before);

    await viewer.act(() => viewer!.model.deleteRuns(['mugs']));
    expect(runIds(viewer)).toEqual(['hello']);
    expect(viewer.find('run-missing')).not.toBeNull();
    await viewer.act(() => viewer!.model.importText(exported));
    expect(viewer.find('notice-text')?.textContent).toBe('Imported 1 run.');
    expect(runIds(viewer)).toEqual(['hello', 'mugs']);
    // Back as it was, marked as come from a file: deleted here, it is the file's copy now.
    const unmarked = (traces: StoredTrace[]) => traces.map(({ run: { importedAt: _when, sizeBytes: _size, ...run }, steps }) => ({ run, steps }));
    expect(unmarked(await store.getTraces())).toEqual(unmarked(before));
    expect((await store.getTrace('mugs'))!.run.importedAt).toEqual(expect.any(Number));

    // With room for one run only, the import says what the next run will remove.
    await viewer.act(() => viewer!.model.saveRetention({ maxRuns: 1 }));
    await viewer.act(() => viewer!.model.importText(exported));
    expect(viewer.find('notice-text')?.textContent).toBe(
      'Nothing new: the file’s run is here already, as the file has it. Only the last run is kept: when the next run ends, both runs here will be removed to make room for it, unless you raise the limit below.',
    );
  });

  it('says the text of a run that ended without an answer is what the model wrote before it ended, not an answer', async () => {
    const store = await storeWith([{ runId: 'template' }]);
    const { run } = (await store.getTrace('template'))!;
    await store.write([{ ...run, id: 'stopped', outcome: 'stopped', answer: 'Searching.' }], []);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('stopped'));
    await viewer.until(() => viewer!.find('run-answer') !== null, 'the text');
    expect(viewer.find('run-answer-label')?.textContent).toBe('Written before the run ended, not an answer');
  });

  it('deletes one run after a confirmation, and then all of them', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'a' }, { runId: 'b' }, { runId: 'c' }]));
    await viewer.act(() => viewer!.model.open('b'));
    await viewer.click(viewer.find('delete-run'));
    await viewer.click(viewer.find('confirm-delete-run'));
    await viewer.until(() => runIds(viewer!).length === 2, 'two runs');
    expect(runIds(viewer)).toEqual(['c', 'a']);
    await viewer.click(viewer.find('delete-all'));
    expect(viewer.find('confirm-delete-all')?.textContent).toBe('Delete 2 runs');
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('no-runs') !== null, 'an empty list');
    expect(viewer.find('notice-text')?.textContent).toBe('Deleted 2 runs.');
  });

  it('counts only the runs it will delete: one still going on is kept, and said to be', async () => {
    const store = await storeWith([{ runId: 'done' }]);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings, streamFlushDelayMs: 1 });
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const model: LanguageModel = {
      async *stream() {
        yield { type: 'text-delta', text: 'Looking for mugs.' };
        await held;
      },
    };
    const going = recordShopRun({ recorder, runId: 'going', model, startedAt: recentTime + 120_000 });
    await recorder.flush();
    viewer = await mountViewer(store, new Map(), 5);
    await viewer.until(() => runIds(viewer!).length === 2, 'two runs');
    await viewer.click(viewer.find('delete-all'));
    expect(viewer.find('confirm-delete-all')?.textContent).toBe('Delete 1 run, not the 1 run going on');
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent === 'Deleted 1 run. 1 run still going on was kept.', 'the deletion');
    answer();
    await going;
  });

  it('deletes only the runs shown where a filter narrows the list: one site’s runs, say', async () => {
    viewer = await mountViewer(
      await storeWith([{ runId: 'a' }, { runId: 'b', origin: 'https://clinic.example' }, { runId: 'c', origin: 'https://clinic.example' }]),
    );
    await viewer.act(() => (viewer!.model.site.value = 'https://clinic.example'));
    expect(viewer.find('delete-all')?.textContent).toBe('Delete matching');
    await viewer.click(viewer.find('delete-all'));
    expect(viewer.find('confirm-delete-all')?.textContent).toBe('Delete 2 matching runs');
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent === 'Deleted 2 runs.', 'the deletion');
    await viewer.act(() => (viewer!.model.site.value = ''));
    expect(runIds(viewer)).toEqual(['a']);
    expect(viewer.find('delete-all')?.textContent).toBe('Delete all');
  });

  it('keeps the focus on the run list while a deletion goes on, not on the page, where the button that asked went', async () => {
    const store = await storeWith([{ runId: 'a' }, { runId: 'b' }]);
    let letGo: () => void = () => {};
    const held: TraceStore = { ...store, deleteFinished: async (runIds) => (await new Promise<void>((resolve) => (letGo = resolve)), store.deleteFinished(runIds)) };
    viewer = await mountViewer(held);
    await viewer.act(() => viewer!.model.open('b'));
    await viewer.click(viewer.find('delete-run'));
    await viewer.click(viewer.find('confirm-delete-run'));
    expect(viewer.find('confirm-delete-run')).toBeNull();
    expect(document.activeElement).toBe(viewer.find('run-list'));
    letGo();
    await viewer.until(() => runIds(viewer!).length === 1, 'one run');
    expect(document.activeElement).toBe(viewer.find('run-list'));

    await viewer.click(viewer.find('delete-all'));
    await viewer.click(viewer.find('confirm-delete-all'));
    expect(document.activeElement).toBe(viewer.find('run-list'));
    letGo();
    await viewer.until(() => viewer!.find('no-runs') !== null, 'an empty list');
    expect(document.activeElement).toBe(viewer.find('viewer-title'));
  });

  it('focuses the search box after deleting the last run a search shows, not the emptied list', async () => {
    viewer = await mountViewer(await storeWithCopies(3));
    await viewer.act(() => (viewer!.model.query.value = 'Request 1'));
    await viewer.act(() => viewer!.model.open('copy-1'));
    await viewer.click(viewer.find('delete-run'));
    await viewer.click(viewer.find('confirm-delete-run'));
    await viewer.until(() => viewer!.find('no-match') !== null, 'no run shown');
    expect(viewer.find('run-count')?.textContent).toBe('0 of 2 runs');
    expect(document.activeElement).toBe(document.getElementById(runSearchId));
  });

  it('focuses "Keep" when a deletion asks, the button that asked after "Keep", and the run list or the heading after deleting or dismissing its notice', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'a' }, { runId: 'b' }]));
    const focused = () => document.activeElement as HTMLElement | null;
    await viewer.act(() => viewer!.model.open('b'));
    await viewer.click(viewer.find('delete-run'));
    expect(focused()?.textContent).toBe('Keep it');
    await viewer.click(focused());
    expect(focused()).toBe(viewer.find('delete-run'));
    // Escape is "Keep it", from either answer.
    await viewer.click(viewer.find('delete-run'));
    await viewer.act(() => void viewer!.find('confirm-delete-run')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(viewer.find('confirm-delete-run')).toBeNull();
    expect(focused()).toBe(viewer.find('delete-run'));
    expect(runIds(viewer)).toEqual(['b', 'a']);
    await viewer.click(viewer.find('delete-run'));
    await viewer.click(viewer.find('confirm-delete-run'));
    await viewer.until(() => runIds(viewer!).length === 1, 'one run');
    expect(focused()).toBe(viewer.find('run-list'));
    // "Deleted 1 run." is dismissed: its button goes, and the focus goes on from the list, not from the page's top.
    (viewer.find('notice')!.querySelector('button') as HTMLElement).focus();
    await viewer.click(viewer.find('notice')!.querySelector('button'));
    expect(viewer.find('notice')).toBeNull();
    expect(focused()).toBe(viewer.find('run-list'));

    await viewer.click(viewer.find('delete-all'));
    expect(focused()?.textContent).toBe('Keep them');
    await viewer.click(focused());
    expect(focused()).toBe(viewer.find('delete-all'));
    await viewer.click(viewer.find('delete-all'));
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('no-runs') !== null, 'an empty list');
    expect(focused()).toBe(viewer.find('viewer-title'));
    expect(focused()?.tagName).toBe('H1');
  });

  it('hands the focus to Cancel once the replay question is answered, and keeps it there, as Replay, when the replay ends', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), new Map([[7, createShopPage()]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    const cancel = viewer.find('replay-cancel');
    await viewer.click(viewer.find('replay-skip'));
    expect(document.activeElement).toBe(cancel);
    await viewer.until(() => viewer!.find('replay-result') !== null, 'the replay result');
    expect(document.activeElement).toBe(viewer.find('replay-start'));
    expect(document.activeElement).toBe(cancel);
  });

  it('puts the focus on the heading of the run its address opened, once, where nothing has it yet', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }, { runId: 'hello', request: 'Say hello', replies: ['Hello!'] }]), undefined, undefined, { initialRunId: 'mugs' });
    await viewer.until(() => viewer!.find('run-title') !== null, 'the run');
    await viewer.act();
    expect(document.activeElement).toBe(viewer.find('run-title'));
    // Another run opened from the list keeps the focus on the list, where the person is.
    const row = viewer.findAll('run-item').find((item) => item.dataset.runId === 'hello')!.querySelector('button')!;
    row.focus();
    await viewer.click(row);
    await viewer.until(() => viewer!.find('run-title')?.textContent === 'Say hello', 'the second run');
    expect(document.activeElement).toBe(row);
  });

  it('leaves the focus where the person put it while the run its address opened was read', async () => {
    const store = await storeWith([{ runId: 'mugs' }]);
    const search = document.createElement('input');
    document.body.append(search);
    search.focus();
    viewer = await mountViewer(store, undefined, undefined, { initialRunId: 'mugs' });
    await viewer.until(() => viewer!.find('run-title') !== null, 'the run');
    await viewer.act();
    expect(document.activeElement).toBe(search);
    search.remove();
  });

  it('says a replay the person cancelled was cancelled, in the panel and to a screen reader, until the next begins', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), new Map([[7, createShopPage()]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    await viewer.click(viewer.find('replay-cancel'));
    const words = 'Replay cancelled. What it ran before stays done in the tab.';
    expect(viewer.find('replay-cancelled')?.textContent).toBe(words);
    expect(viewer.find('replay-announcer')?.textContent).toBe(words);
    expect(document.activeElement).toBe(viewer.find('replay-start'));
    await viewer.click(viewer.find('replay-start'));
    expect(viewer.find('replay-cancelled')).toBeNull();
  });

  it('names the tabs to replay in by their addresses and titles, not by internal ids, the page\'s own words last and short', async () => {
    const pages = new Map([
      [7, createShopPage({ title: 'Gear for slow mornings · Trail & Mug' })],
      [8, createShopPage()],
      [9, createShopPage({ title: `https://bank.example/ · 3 tools · ${'padding '.repeat(20)}` })],
    ]);
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), pages);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    const options = [...(viewer.find('replay-tab') as HTMLSelectElement).options].map((option) => option.textContent);
    // A tab whose title the browser did not tell is named by its address; a title that imitates
    // the label comes after the browser's facts, cut to 60 characters. The run's own tab (7) says so:
    // tabs whose addresses differ only in their query strings read alike otherwise.
    expect(options).toEqual([
      "https://shop.example/ · 2 tools · the run's own tab · Gear for slow mornings · Trail & Mug",
      'https://shop.example/ · 2 tools',
      `https://shop.example/ · 2 tools · https://bank.example/ · 3 tools · ${'padding '.repeat(20).slice(0, 59 - 'https://bank.example/ · 3 tools · '.length)}…`,
    ]);
  });

  it('replays a run in its tab, asks before a tool that changes the page, and shows the divergence at its step', async () => {
    const page = createShopPage({ prices: { 'enamel-mug': 14 } });
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), new Map([[7, page]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    expect((viewer.find('replay-tab') as HTMLSelectElement).value).toBe('7');

    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    expect(viewer.find('replay-confirm')?.dataset.name).toBe('add_to_cart');
    expect(page.cart).toEqual([]);
    await viewer.click(viewer.find('replay-allow'));
    await viewer.until(() => viewer!.find('replay-result') !== null, 'the replay result');
    expect(page.cart).toEqual([{ slug: 'enamel-mug', qty: 2 }]);
    expect(viewer.find('replay-result')?.dataset.firstStep).toBe('2');
    // The result stays as the tabs change (one closes, another opens): it says which replay it was.
    expect(viewer.find('replay-ran')?.textContent).toMatch(new RegExp(`^Last replay, in ${page.url.replace(/[.?]/g, '\\$&')} at \\d.+:$`));
    const divergence = viewer.find('divergence', viewer.find('divergence-list')!)!;
    expect(divergence.dataset.type).toBe('result');
    expect(divergence.textContent).toContain('open_product returned something else.');
    // Both results laid out as the side panel and the inspector lay out JSON, a field a line.
    expect([...divergence.querySelectorAll('.result-pair pre')].map((pre) => pre.textContent)).toEqual([
      '{\n  "slug": "enamel-mug",\n  "price": 12,\n  "inStock": true\n}',
      '{\n  "slug": "enamel-mug",\n  "price": 14,\n  "inStock": true\n}',
    ]);
    // The line that changed is marked on each side, and only it.
    expect([...divergence.querySelectorAll('.result-pair pre')].map((pre) => [...pre.querySelectorAll('mark')].map((mark) => mark.textContent))).toEqual([['  "price": 12,'], ['  "price": 14,']]);
    expect(viewer.find('step-divergences', viewer.findAll('step')[1])).not.toBeNull();
  });

  it('tells a screen reader which run it shows when another is opened from the list, once a run', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }, { runId: 'hello', request: 'Say hello', replies: ['Hello!'] }]));
    const said = () => viewer!.find('opened-run-announcer')?.textContent;
    // The viewer opened from the options page, with no run in its address: the first run opened is said too.
    await viewer.click(viewer.findAll('run-item').find((item) => item.dataset.runId === 'mugs')!.querySelector('button'));
    await viewer.until(() => said() !== '', 'the announcement');
    expect(said()).toBe('Showing "Put two enamel mugs in my cart": Answered, 4 steps.');
    await viewer.click(viewer.findAll('run-item').find((item) => item.dataset.runId === 'hello')!.querySelector('button'));
    await viewer.until(() => said()?.includes('Say hello') === true, 'the second announcement');
    expect(said()).toBe('Showing "Say hello": Answered, 1 step.');
    // Deleted, it is no longer said to be shown (a reading cursor would still find it).
    await viewer.act(() => viewer!.model.deleteRuns(['hello']));
    expect(viewer.find('run-missing')).not.toBeNull();
    expect(said()).toBe('');
    await viewer.click(viewer.findAll('run-item').find((item) => item.dataset.runId === 'mugs')!.querySelector('button'));
    await viewer.until(() => said() !== '', 'the announcement of the run opened next');
    expect(said()).toBe('Showing "Put two enamel mugs in my cart": Answered, 4 steps.');
  });

  it('picks the replay tab afresh for each run: a tab chosen for one site never carries over to another', async () => {
    const shop = createShopPage();
    const other = { ...createShopPage(), origin: 'https://other.example', url: 'https://other.example/' };
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }, { runId: 'hello', replies: ['Hello!'], origin: other.origin }]), new Map([[7, shop], [8, other]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    expect((viewer.find('replay-tab') as HTMLSelectElement).value).toBe('7');
    await viewer.act(() => viewer!.model.open('hello'));
    await viewer.until(() => viewer!.model.replayTabId.value === 8, 'the other site\'s tab');
  });

  it('lists and shows every run even when a stored record holds a time no date can show, and refuses to import one', async () => {
    const store = await storeWith([{ runId: 'mine' }]);
    // Stored before imports were checked: a run dated past what a date can show.
    const mine = (await store.getTrace('mine'))!;
    const odd = { run: { ...mine.run, id: 'odd', request: 'odd', startedAt: 1e300 }, steps: mine.steps.map((step) => ({ ...step, runId: 'odd' })) };
    await store.putTraces([odd]);
    viewer = await mountViewer(store);
    expect(viewer.find('run-count')?.textContent).toBe('2 runs');
    expect(runIds(viewer)).toEqual(['odd', 'mine']);
    expect(viewer.findAll('run-item')[0]?.textContent).toContain('(invalid date)');
    await viewer.click(viewer.findAll('run-item')[0]!.querySelector('button'));
    await viewer.until(() => viewer!.find('run-detail') !== null, 'the odd run');
    expect(viewer.find('run-title')?.textContent).toBe('odd');

    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile([{ ...odd, run: { ...odd.run, id: 'odder' }, steps: [] }]))));
    expect(viewer.find('notice-text')?.textContent).toBe('Nothing was imported. The trace file is damaged: runs[0].run.startedAt: not a date.');
    expect(runIds(viewer)).toEqual(['odd', 'mine']);
  });

  it('says the runs could not be read, and why, not that there are none, where the list cannot be read', async () => {
    const store = await storeWith([{ runId: 'a' }]);
    const why = 'The runs kept here were written by a newer version of this extension, which this one cannot read.';
    const unreadable = Object.assign(Object.create(store) as TraceStore, { listRuns: () => Promise.reject(new Error(why)) });
    viewer = await mountViewer(unreadable);
    // Said where the runs would be, for as long as it holds: not in a notice that may be dismissed.
    expect(viewer.find('runs-unread')?.textContent).toBe(`The runs could not be read: ${why}`);
    expect(viewer.find('no-runs')).toBeNull();
  });

  it('opens the next run after one whose request is not text, as a damaged record may hold', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = await storeWith([{ runId: 'a' }, { runId: 'b', request: 'find a green mug' }]);
    const damaged = (await store.getTrace('a'))!;
    await store.putTraces([{ run: { ...damaged.run, request: { text: 'an object, not text' } as never }, steps: damaged.steps }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('a'));
    await viewer.until(() => document.title === 'Agent traces', 'the title of a run whose request is not text');
    // Chosen as a click does: the panel draws before the run is read, with the run before still in it.
    // While it is read, the run before is never shown under its name, nor its fault with a Delete that would take it.
    const faultsShown = new Set<string | undefined>();
    const watch = new MutationObserver(() => faultsShown.add(viewer!.find('run-unreadable')?.dataset.runId));
    watch.observe(viewer.container, { childList: true, subtree: true, attributes: true });
    void viewer.model.open('b');
    await viewer.until(() => viewer!.find('run-detail')?.dataset.runId === 'b', 'the next run shown');
    watch.disconnect();
    expect(faultsShown.has('b')).toBe(false);
    await viewer.until(() => document.title === 'find a green mug – Agent traces', 'the next run named in the title');
    expect(viewer.findAll('run-item').find((item) => item.dataset.runId === 'a')?.textContent).toContain('Its record could not be shown: it is damaged, or from another version.');
    // A search reads past the request that is not text.
    await viewer.act(() => void (viewer!.model.query.value = 'green'));
    expect(viewer.findAll('run-item').map((item) => item.dataset.runId)).toEqual(['b']);
    warn.mockRestore();
  });

  it('says so when a run cannot be drawn, and the rest of the viewer goes on working', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = await storeWith([{ runId: 'a' }, { runId: 'b' }]);
    const damaged = (await store.getTrace('a'))!;
    await store.putTraces([{ run: damaged.run, steps: damaged.steps.map((step) => ({ ...step, calls: null as never })) }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('a'));
    expect(viewer.find('run-unreadable')?.querySelector('.notice')?.textContent).toBe('This run could not be shown: its record is damaged, or was written by another version of the extension. It can still be exported or deleted.');
    expect(viewer.find('delete-run')).not.toBeNull();
    expect(runIds(viewer)).toEqual(['b', 'a']);
    await viewer.act(() => viewer!.model.open('b'));
    expect(viewer.find('run-detail')?.dataset.runId).toBe('b');
    await viewer.act(() => viewer!.model.close());
    expect(viewer.container.querySelector('.detail-pane')?.textContent).toBe('Choose a run to see its steps.');
    warn.mockRestore();
  });

  it('exports all as several files once they would pass the size the viewer imports, each of which imports back', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    // A Japanese page: three bytes a character, which a count of characters would miss.
    const japanese = 'エナメルマグカップ、在庫あり。'.repeat(600);
    const shop = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => ({ text: japanese + (await page.executeTool(name, args)).text }) };
    for (let index = 1; index <= 6; index += 1) await recordShopRun({ recorder, runId: `jp-${index}`, page: shop, startedAt: recentTime + index * 60_000 });
    await recorder.flush();
    const limit = 0.5 * 1024 * 1024;
    viewer = await mountViewer(store, new Map(), undefined, { maxFileBytes: limit });
    await viewer.click(viewer.find('export-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent?.startsWith('Exported') ?? false, 'the export');
    const files = viewer.downloads;
    expect(files.length).toBeGreaterThan(1);
    expect(viewer.find('notice-text')?.textContent).toBe(`Exported 6 runs in ${files.length} files, as the viewer imports files of up to 0.5 MB.`);
    for (const [index, file] of files.entries()) {
      expect(file.fileName).toMatch(new RegExp(`^traces-.*-part-${index + 1}\\.json$`));
      expect(new TextEncoder().encode(file.text).length).toBeLessThanOrEqual(limit);
    }

    viewer.unmount();
    viewer = await mountViewer(await openTestStore(), new Map(), undefined, { maxFileBytes: limit });
    for (const file of files) {
      await viewer.act(() => viewer!.model.importText(file.text));
      expect(viewer.find('notice-text')?.textContent).toMatch(/^Imported \d+ runs?\.$/);
    }
    expect(runIds(viewer)).toEqual(['jp-6', 'jp-5', 'jp-4', 'jp-3', 'jp-2', 'jp-1']);
  });

  it('still exports a run larger than the viewer imports, in a file of its own, and says that file cannot be imported back', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    const page = createShopPage();
    const japanese = 'エナメルマグカップ、在庫あり。'.repeat(1_200);
    const shop = { ...page, executeTool: async (name: string, args: Record<string, unknown>) => ({ text: japanese + (await page.executeTool(name, args)).text }) };
    await recordShopRun({ recorder, runId: 'big', page: shop, request: 'Two mugs', startedAt: recentTime });
    await recordShopRun({ recorder, runId: 'small', replies: ['Hello!'], request: 'Hello', startedAt: recentTime + 60_000 });
    await recorder.flush();
    viewer = await mountViewer(store, new Map(), undefined, { maxFileBytes: 0.1 * 1024 * 1024 });
    await viewer.click(viewer.find('export-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent?.startsWith('Exported') ?? false, 'the export');
    expect(viewer.downloads.map((file) => JSON.parse(file.text).runs.map((trace: { run: { id: string } }) => trace.run.id))).toEqual([['small'], ['big']]);
    expect(viewer.find('notice')?.dataset.tone).toBe('error');
    expect(viewer.find('notice-text')?.textContent).toBe(
      'Exported 2 runs in 2 files, as the viewer imports files of up to 0.1 MB. The run "Two mugs" takes 0.2 MB on its own, more than the viewer imports: its file cannot be imported back.',
    );
  });

  it('keeps no traces once the person unticks it: the recorder is told, the runs listed stay, and the summary says so', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'mine' }]));
    await viewer.until(() => viewer!.find('retention-settings') !== null, 'the retention form');
    const form = viewer.find('retention-settings') as HTMLFormElement;
    const keep = form.querySelector<HTMLInputElement>('input[name="keepTraces"]')!;
    expect(keep.checked).toBe(true);
    keep.checked = false;
    await viewer.act(() => form.requestSubmit());
    await viewer.until(() => viewer!.find('notice-text')?.textContent === 'Keeping no traces of new runs. The runs listed stay until you delete them.', 'the notice');
    expect(viewer.container.querySelector('.retention summary')?.textContent).toBe('Keeping no traces');
    expect(await createStoredRecorder({ store: await openTestStore(), loadSettings: loadTraceSettings }).whyNotKept?.()).toBe('traces-off');
    expect(runIds(viewer)).toEqual(['mine']);
  });

  it("follows the limits another viewer saved, and saves only what the person changed here, not that viewer's fields as this one showed them before", async () => {
    const store = await storeWith([{ runId: 'mine' }]);
    const saved: object[] = [];
    viewer = await mountViewer(store, new Map(), undefined, { onSaveSettings: (change) => saved.push(change) });
    await viewer.until(() => viewer!.find('retention-settings') !== null, 'the retention form');
    // Another viewer keeps 90 runs.
    await saveTraceSettings({ maxRuns: 90 });
    await viewer.until(() => viewer!.container.querySelector('.retention summary')?.textContent === 'Keeping 90 runs, up to 50 MB', 'the other viewer\'s limit');
    const form = viewer.find('retention-settings') as HTMLFormElement;
    expect(form.querySelector<HTMLInputElement>('input[name="maxRuns"]')!.value).toBe('90');
    // Saved there again meanwhile, unseen here: this viewer's Save of its checkbox keeps it.
    await saveTraceSettings({ maxMegabytes: 80 });
    form.querySelector<HTMLInputElement>('input[name="keepTraces"]')!.checked = false;
    await viewer.act(() => form.requestSubmit());
    await viewer.until(() => viewer!.container.querySelector('.retention summary')?.textContent === 'Keeping no traces', 'the summary');
    expect(await loadTraceSettings()).toEqual({ keepTraces: false, maxRuns: 90, maxMegabytes: 80 });
    // The checkbox alone: the fields it showed were not the person's to write back.
    expect(saved).toEqual([{ keepTraces: false }]);
  });

  it('after an import past the megabyte limit, says how many runs the next one will remove, and it removes that many', async () => {
    const store = await storeWith([{ runId: 'mine' }]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.saveRetention({ maxRuns: 200, maxMegabytes: 1 }));
    const mine = (await store.getTrace('mine'))!;
    // Six older runs of about 200 kB each.
    const imported = Array.from({ length: 6 }, (_, index) => {
      const id = `old-${index}`;
      const steps = mine.steps.map((step) => ({ ...step, runId: id, messages: [{ role: 'user' as const, content: 'x'.repeat(50_000) }] }));
      return { run: { ...mine.run, id, startedAt: mine.run.startedAt - 60_000 * (index + 1) }, steps };
    });
    await viewer.act(() => viewer!.model.importText(JSON.stringify(createTraceFile(imported))));
    const notice = viewer.find('notice-text')?.textContent ?? '';
    const [, removed] = /^Imported 6 runs\. Runs are kept up to 1 MB: when the next run ends, the (oldest run|\d+ oldest runs) here, or more, will be removed to make room for it, unless you raise the limit below\.$/.exec(notice) ?? [];
    const removedCount = removed === 'oldest run' ? 1 : Number.parseInt(removed ?? '', 10);
    expect(removedCount).toBeGreaterThan(0);

    const recorder = createStoredRecorder({ store, loadSettings: loadTraceSettings });
    await recordShopRun({ recorder, runId: 'next' });
    await recorder.flush();
    await recorder.flush();
    await viewer.act(() => viewer!.model.load());
    // The next run itself took room too: it may have pushed out one more.
    expect(7 + 1 - runIds(viewer).length).toBeGreaterThanOrEqual(removedCount);
    expect(7 + 1 - runIds(viewer).length).toBeLessThanOrEqual(removedCount + 1);
    expect(runIds(viewer).slice(0, 2)).toEqual(['next', 'mine']);
    // The notice says now that they went, not that they will.
    const gone = 7 + 1 - runIds(viewer).length;
    expect(viewer.find('notice-text')?.textContent).toBe(`Imported 6 runs. Since then, the ${gone} oldest run${gone === 1 ? ' was' : 's were'} removed, to keep within the limits below.`);
  });

  /** Three runs older than the one stored imported, where only three are kept: the next run's end removes the two oldest. */
  async function importThreeOlderRuns() {
    const store = await storeWith([{ runId: 'mine' }]);
    const shown = await mountViewer(store);
    viewer = shown;
    await shown.act(() => shown.model.saveRetention({ maxRuns: 3, maxMegabytes: 100 }));
    const mine = (await store.getTrace('mine'))!;
    const imported = Array.from({ length: 3 }, (_, index) => ({ run: { ...mine.run, id: `old-${index}`, startedAt: mine.run.startedAt - 60_000 * (index + 1) }, steps: [] }));
    await shown.act(() => shown.model.importText(JSON.stringify(createTraceFile(imported))));
    return { store, shown };
  }

  it('after such an import, does not count a run another viewer deleted meanwhile as one the limits removed', async () => {
    const { store, shown } = await importThreeOlderRuns();
    expect(shown.find('notice-text')?.textContent).toBe(
      'Imported 3 runs. Only the last 3 runs are kept: when the next run ends, the 2 oldest runs here will be removed to make room for it, unless you raise the limit below.',
    );
    // Another viewer deletes the newest run: no limit did that, and the runs said to go are still here.
    await store.deleteRuns(['mine']);
    await shown.act(() => shown.model.load());
    expect(shown.find('notice-text')?.textContent).toContain('will be removed to make room for it');
    // The limits remove the oldest two: said once they went.
    await store.deleteRuns(['old-2', 'old-1']);
    await shown.act(() => shown.model.load());
    expect(shown.find('notice-text')?.textContent).toBe('Imported 3 runs. Since then, the 2 oldest runs were removed, to keep within the limits below.');
  });

  it('after such an import, says only that the runs went where none of those listed is left: the limits or a deletion, it cannot tell', async () => {
    const { store, shown } = await importThreeOlderRuns();
    expect(shown.find('notice-text')?.textContent).toContain('will be removed to make room for it');
    await store.deleteRuns(['mine', 'old-0', 'old-1', 'old-2']);
    await shown.act(() => shown.model.load());
    expect(shown.find('notice-text')?.textContent).toBe('Imported 3 runs. Since then, every run listed then has gone.');
  });

  it('forgets a delete confirmation when another run is opened', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'a', request: 'first' }, { runId: 'b', request: 'second' }]));
    await viewer.act(() => viewer!.model.open('a'));
    await viewer.click(viewer.find('delete-run'));
    expect(viewer.find('confirm-delete-run')).not.toBeNull();
    await viewer.act(() => viewer!.model.open('b'));
    expect(viewer.find('run-title')?.textContent).toBe('second');
    expect(viewer.find('confirm-delete-run')).toBeNull();
    expect(viewer.find('delete-run')?.textContent).toBe('Delete this run');
  });

  it('announces notices in live regions that are there before them, politely unless something failed', async () => {
    viewer = await mountViewer(await storeWith([{ runId: 'a' }, { runId: 'b' }]));
    const status = viewer.find('notice-status')!;
    const alert = viewer.find('notice-alert')!;
    expect([status.getAttribute('role'), alert.getAttribute('role')]).toEqual(['status', 'alert']);
    expect(status.textContent).toBe('');
    await viewer.act(() => viewer!.model.deleteRuns(['a']));
    expect(viewer.find('notice-status')).toBe(status);
    expect(status.textContent).toContain('Deleted 1 run.');
    // Read out as its words alone: Dismiss is beside the region, not in it.
    expect(status.textContent).toBe('Deleted 1 run.');
    expect(status.querySelector('button')).toBeNull();
    expect(viewer.find('notice')?.querySelector('button[aria-label="Dismiss"]')).not.toBeNull();
    await viewer.act(() => viewer!.model.importText('not json'));
    expect(viewer.find('notice-alert')).toBe(alert);
    expect(alert.textContent).toContain('Nothing was imported. This file is not a trace file: it is not JSON.');
    expect(status.textContent).toBe('');
  });

  it('names the replay confirmation after the call and the site, says why it asks, focuses it, and announces progress and result', async () => {
    const page = createShopPage();
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), new Map([[7, page]]));
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    const announcer = viewer.find('replay-announcer')!;
    expect(announcer.getAttribute('aria-live')).toBe('polite');
    expect(announcer.textContent).toBe('');

    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    const dialog = viewer.find('replay-confirm')!;
    // A question in the run's page, not a modal dialog: Tab goes on past it, to the run it is about.
    expect(dialog.getAttribute('role')).toBe('group');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('The replay wants to run add_to_cart on https://shop.example with:');
    // The arguments in full, as the side panel's card shows them (a named group, not read out whole); then why it asks.
    expect(dialog.querySelector('[aria-label="Arguments"]')?.textContent).toBe('{\n  "qty": 2\n}');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('It is not marked read-only, so it may change the page.');
    expect(document.activeElement).toBe(dialog);
    expect(viewer.find('replay-announcer')).toBe(announcer);
    // The dialog, focused, says the question: the region only says the replay runs.
    expect(announcer.textContent).toBe('Replaying the run…');

    // Once said, the words go: a screen reader reading the page afterwards hears the result once, where it shows.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await viewer.click(viewer.find('replay-allow'));
      await viewer.until(() => viewer!.find('replay-result') !== null, 'the replay result');
      expect(announcer.textContent).toBe('The replay went as recorded (4 steps).');
      act(() => {
        vi.advanceTimersByTime(10_000);
      });
      expect(announcer.textContent).toBe('');
      expect(viewer.find('replay-result')?.textContent).toContain('The replay went as recorded (4 steps).');
      // A second replay that ends the same way is said again.
      await viewer.click(viewer.find('replay-start'));
      await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the second confirmation');
      expect(announcer.textContent).toBe('Replaying the run…');
      await viewer.click(viewer.find('replay-allow'));
      await viewer.until(() => viewer!.find('replay-result') !== null, 'the second result');
      const second = viewer.find('replay-result')!.querySelector('.replay-same, .replay-different')!.textContent;
      expect(announcer.textContent).toBe(second);
      // The same words said again after others: they stand again, then go.
      act(() => {
        vi.advanceTimersByTime(10_000);
      });
      expect(announcer.textContent).toBe('');
      await viewer.click(viewer.find('replay-start'));
      await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the third confirmation');
      await viewer.click(viewer.find('replay-allow'));
      await viewer.until(() => viewer!.find('replay-result') !== null, 'the third result');
      expect(viewer.find('replay-result')!.querySelector('.replay-same, .replay-different')!.textContent).toBe(second);
      expect(announcer.textContent).toBe(second);
    } finally {
      vi.useRealTimers();
    }
  });

  it('withdraws the question once the replay\'s tab leaves the site, says why, and hands the focus to Replay', async () => {
    const pages = new Map([[7, createShopPage()]]);
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), pages);
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    expect(document.activeElement).toBe(viewer.find('replay-confirm'));
    pages.set(7, { ...createShopPage(), url: 'https://other.example/', origin: 'https://other.example' });
    await viewer.until(() => viewer!.find('replay-confirm') === null, 'the question withdrawn');
    await viewer.until(() => viewer!.find('replay-error') !== null, 'why the replay stopped');
    expect(viewer.find('replay-error')?.textContent).toContain('The tab went from https://shop.example to https://other.example, so the replay stopped');
    expect(document.activeElement).toBe(viewer.find('replay-start'));
  });

  it('says a replayed read-only call asks because the person confirms every call', async () => {
    const page = createShopPage();
    const consent = async () => ({ askEveryCall: true, disabledSites: [] });
    viewer = await mountViewer(await storeWith([{ runId: 'mugs' }]), new Map([[7, page]]), undefined, { service: { consent } });
    await viewer.act(() => viewer!.model.open('mugs'));
    await viewer.until(() => viewer!.find('replay-tab') !== null, 'the tab to replay in');
    await viewer.click(viewer.find('replay-start'));
    await viewer.until(() => viewer!.find('replay-confirm') !== null, 'the confirmation');
    expect(viewer.find('replay-confirm')?.dataset.name).toBe('search_products');
    expect(viewer.find('replay-confirm-reason')?.textContent).toBe('You asked to confirm every tool call.');
  });

  it('sums up a step whose call the person declined as declined, not as a problem', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'declined', approve: (name) => name !== 'add_to_cart' });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('declined'));
    const summaries = viewer.findAll('step').map((step) => viewer!.find('step-summary', step)?.textContent ?? '');
    const declinedStep = summaries.find((summary) => summary.includes('add_to_cart'));
    expect(declinedStep).toMatch(/ · add_to_cart · declined by you$/);
    expect(summaries.join('\n')).not.toMatch(/problem/);
    await viewer.openSteps();
    const labels = viewer.findAll('problem-kind').map((label) => `${label.textContent} ${label.dataset.fault}`);
    expect(labels).toEqual(['Declined: false']);
  });

  it('sums up a step that held only an unreadable call, one cut off before any call and one with no reply, as what they were', async () => {
    const store = await storeWith([{ runId: 'broken', replies: ['<tool_call>search products, please</tool_call>', 'Sorry.'] }]);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    recorder.startRun({ runId: 'cut', tabId: 7, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'webllm', model: 'm', request: 'cut', startedAt: Date.now() });
    recorder.record('cut', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'cut' }] });
    recorder.record('cut', { type: 'text-delta', step: 1, text: 'Let me' });
    // A server that refused the request: the run ended before the model wrote anything.
    recorder.startRun({ runId: 'refused', tabId: 7, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'openai', model: 'm', request: 'refused', startedAt: Date.now() });
    recorder.record('refused', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'refused' }] });
    // Refused as too long, fitted again, and refused again before any reply.
    recorder.record('refused', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'refused' }], refits: 1 });
    await recorder.flush();
    // The worker stopped there: the next one marks the run interrupted.
    await createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings }).ready;
    viewer = await mountViewer(store);

    await viewer.act(() => viewer!.model.open('broken'));
    expect(viewer.find('step-summary', viewer.findAll('step')[0])?.textContent).toMatch(/^Step 1 · model \d+ ms · unreadable call · 1 problem$/);
    expect(viewer.find('step-summary', viewer.findAll('step')[1])?.textContent).toMatch(/ · answer$/);
    await viewer.act(() => viewer!.model.open('cut'));
    await viewer.openSteps();
    expect(viewer.find('step-summary')?.textContent).toBe('Step 1 · cut off');
    expect(viewer.find('no-calls')?.textContent).toBe('The reply was cut off before any call.');
    await viewer.act(() => viewer!.model.open('refused'));
    await viewer.openSteps();
    expect(viewer.find('step-summary')?.textContent).toBe('Step 1 · no reply · prompt fitted again once: the model found it too long');
    expect(viewer.find('no-calls')?.textContent).toBe('No reply, so no call.');
  });

  it('sums up a step that called a missing tool a third time as that, and one that only thought as no answer, as the panel said them', async () => {
    const missing = '<tool_call>{"name": "find_products", "arguments": {"query": "mug"}}</tool_call>';
    const store = await storeWith([
      { runId: 'missing', replies: [missing, missing, missing] },
      { runId: 'thinking', replies: ['<think>I will call <tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call></think>'] },
    ]);
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('missing'));
    const summaries = viewer.findAll('step').map((step) => viewer!.find('step-summary', step)?.textContent ?? '');
    expect(summaries).toHaveLength(3);
    for (const summary of summaries) expect(summary).toMatch(/ · call to an unknown tool · 1 problem$/);
    await viewer.act(() => viewer!.model.open('thinking'));
    await viewer.openSteps();
    expect(viewer.find('step-summary')?.textContent).toMatch(/^Step 1 · model \d+ ms · no answer$/);
    expect(viewer.find('no-calls')?.textContent).toBe('No calls at this step, and no answer: the model wrote only its thinking.');
  });

  it("says why a reply the trace holds unfinished ends: the engine's error, or the person's stop", async () => {
    const capped: LanguageModel = {
      async *stream() {
        yield { type: 'text-delta', text: 'Here is a long story about mugs' };
        throw replyCutOff('1,024 tokens');
      },
    };
    const stopping = new AbortController();
    const stopped: LanguageModel = {
      async *stream() {
        yield { type: 'text-delta', text: 'Let me look' };
        stopping.abort();
        await new Promise(() => {});
      },
    };
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'capped', model: capped });
    await recordShopRun({ recorder, runId: 'stopped', model: stopped, signal: stopping.signal });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('capped'));
    await viewer.openSteps();
    expect(viewer.find('cut-off-notice')?.textContent).toBe("The reply ends here. The model's reply reached 1,024 tokens and was cut off.");
    await viewer.act(() => viewer!.model.open('stopped'));
    await viewer.openSteps();
    expect(viewer.find('cut-off-notice')?.textContent).toBe('The reply was cut off here: the run was stopped while the model was writing.');
  });

  it('says a step whose reply was cut off inside a fourth copy of one call was kept to its third', async () => {
    const copy = '<tool_call>{"name": "search_products", "arguments": {"query": "mug"}}</tool_call>\n';
    let turns = 0;
    // An engine at its token cap, then the answer.
    const capped: LanguageModel = {
      async *stream() {
        if (turns++ > 0) return yield { type: 'text-delta', text: 'The mug is there.' };
        yield { type: 'text-delta', text: copy.repeat(3) + copy.slice(0, 30) };
        throw replyCutOff('1,024 tokens');
      },
    };
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'looping', model: capped });
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('looping'));
    expect(viewer.find('step-summary', viewer.findAll('step')[0])?.textContent).toMatch(
      /^Step 1 · model \d+ ms · search_products, search_products, search_products · 2 problems · cut off while writing the same calls over and over: what it wrote after that was not read$/,
    );
  });

  it('shows the second of two identical calls in one reply as not run, and why', async () => {
    const twice = `<tool_call>{"name": "add_to_cart", "arguments": {"qty": 1}}</tool_call>`;
    const replies = [shopReplies[0]!, shopReplies[1]!, `${twice}\n${twice}`, 'I added one enamel mug.'];
    viewer = await mountViewer(await storeWith([{ runId: 'stutter', replies }]));
    await viewer.act(() => viewer!.model.open('stutter'));
    await viewer.openSteps();
    const calls = viewer.findAll('call', viewer.findAll('step')[2]);
    expect(calls.map((call) => call.dataset.callId)).toEqual(['3.1', '3.2']);
    expect(viewer.find('call-result', calls[0])?.textContent).toBe('{"itemCount":1}');
    expect(viewer.find('call-result', calls[1])).toBeNull();
    expect(viewer.find('problem', calls[1])?.textContent).toBe('Not run: The same call as the one above, in the same reply.');
  });

  it('says under the scores how many tools the page offered, and which were not shown with their scores', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    // The shop's 2 tools and `extraCount` more that match nothing: all score 0 and keep the page's order.
    const pageWith = (extraCount: number) => {
      const shop = createShopPage();
      const extras = Array.from({ length: extraCount }, (_, index) => ({ name: `dev_tool_${index + 1}`, description: 'Fails on purpose.', inputSchema: { type: 'object' } }));
      return { ...shop, tools: () => [...shop.tools(), ...extras] };
    };
    const askForLeftOut = '<tool_call>{"name": "dev_tool_12", "arguments": {}}</tool_call>';
    await recordShopRun({ recorder, runId: 'fourteen', page: pageWith(12), replies: [askForLeftOut, 'Sorry.'], startedAt: recentTime });
    await recordShopRun({ recorder, runId: 'many', page: pageWith(500), replies: ['Nothing.'], startedAt: recentTime + 60_000 });
    recorder.startRun({ runId: 'older', tabId: 7, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'e', model: 'm', request: 'older', startedAt: recentTime + 120_000 });
    // A step as recorded before the page's count was kept.
    recorder.record('older', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'older' }] });
    recorder.endRun('older', 'stopped', recentTime + 120_500);
    await recorder.flush();
    viewer = await mountViewer(store);
    const notShownRows = () => viewer!.findAll('not-shown-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

    await viewer.act(() => viewer!.model.open('fourteen'));
    await viewer.openSteps();
    const [first] = viewer.findAll('step');
    expect(viewer.findAll('score-row', first).map((row) => row.dataset.tool)).toHaveLength(8);
    expect(viewer.find('not-shown-summary', first)?.textContent).toBe('14 tools on the page; 6 not shown:');
    expect(notShownRows().slice(0, 6)).toEqual([
      ['dev_tool_7', '0'],
      ['dev_tool_8', '0'],
      ['dev_tool_9', '0'],
      ['dev_tool_10', '0'],
      ['dev_tool_11', '0'],
      // The tool the model asked for and was not given.
      ['dev_tool_12 (asked for)', '0'],
    ]);
    expect(viewer.find('not-shown-rest', first)).toBeNull();

    await viewer.act(() => viewer!.model.open('many'));
    await viewer.openSteps();
    expect(viewer.find('not-shown-summary')?.textContent).toBe('502 tools on the page; 494 not shown:');
    expect(notShownRows()).toHaveLength(50);
    expect(notShownRows()[0]).toEqual(['dev_tool_7', '0']);
    expect(viewer.find('not-shown-rest')?.textContent).toBe('And 444 more, none scored above 0.');

    await viewer.act(() => viewer!.model.open('older'));
    await viewer.openSteps();
    expect(viewer.find('not-shown-summary')).toBeNull();
    expect(viewer.find('step')?.textContent).toContain('The page offered no tools at this step.');
  });

  // These draw a hundred rows and more: seconds in happy-dom on a busy machine.
  const manyRowsMs = 30_000;

  it('draws the first fifty of many runs, each saying its place among them, and the rest on request, the focus on the first new one', async () => {
    viewer = await mountViewer(await storeWithCopies(80));
    expect(viewer.find('run-count')?.textContent).toBe('80 runs');
    expect(runIds(viewer)).toHaveLength(50);
    expect(place(viewer, 0)).toEqual(['1', '80']);
    expect(place(viewer, 49)).toEqual(['50', '80']);
    const more = viewer.find('more-runs')!;
    expect(more.textContent).toBe('Show 30 more runs (30 not shown yet)');
    more.focus();
    await viewer.click(more);
    expect(runIds(viewer)).toHaveLength(80);
    expect(place(viewer, 79)).toEqual(['80', '80']);
    expect(document.activeElement).toBe(viewer.findAll('run-item')[50]!.querySelector('button'));
    expect(viewer.find('more-runs')).toBeNull();
  }, manyRowsMs);

  it('moves through the list by the arrow keys, Home and End, drawing the next fifty past the last row drawn', async () => {
    viewer = await mountViewer(await storeWithCopies(60));
    const button = (index: number) => viewer!.findAll('run-item')[index]!.querySelector('button')!;
    const press = async (key: string, options: KeyboardEventInit = {}) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...options });
      await viewer!.act(() => document.activeElement!.dispatchEvent(event));
      return event.defaultPrevented;
    };
    button(0).focus();
    expect(await press('ArrowDown')).toBe(true);
    expect(document.activeElement).toBe(button(1));
    await press('ArrowUp');
    await press('ArrowUp');
    expect(document.activeElement).toBe(button(0));
    await press('End');
    expect(document.activeElement).toBe(button(49));
    // Past the last row drawn, the next ones are drawn and the first of them has the focus.
    await press('ArrowDown');
    expect(viewer.findAll('run-item')).toHaveLength(60);
    expect(document.activeElement).toBe(button(50));
    await press('Home');
    expect(document.activeElement).toBe(button(0));
    // Nothing is opened by moving, and keys with a modifier are left to the browser.
    expect(viewer.model.openRunId.value).toBeUndefined();
    expect(await press('ArrowDown', { altKey: true })).toBe(false);
    expect(document.activeElement).toBe(button(0));
  }, manyRowsMs);

  it('is one stop for Tab, however many runs it holds: the row last focused, or the open run, or the first', async () => {
    viewer = await mountViewer(await storeWithCopies(60));
    const tabStops = () => viewer!.findAll('run-item').filter((row) => row.querySelector('button')!.tabIndex === 0).map((row) => row.getAttribute('aria-posinset'));
    expect(tabStops()).toEqual(['1']);
    const openedId = viewer.findAll('run-item')[7]!.getAttribute('data-run-id')!;
    await viewer.act(() => viewer!.model.open(openedId));
    expect(tabStops()).toEqual(['8']);
    await viewer.act(() => viewer!.findAll('run-item')[3]!.querySelector('button')!.focus());
    expect(tabStops()).toEqual(['4']);
    // A search that leaves out the row last focused hands the stop to the open run, or else the first.
    await viewer.act(() => (viewer!.model.query.value = viewer!.model.visibleRuns.value[7]!.request));
    expect(runIds(viewer)).toEqual([openedId]);
    expect(tabStops()).toEqual(['1']);
    await viewer.act(() => (viewer!.model.query.value = 'Request 1'));
    expect(runIds(viewer)).not.toContain(openedId);
    expect(tabStops()).toEqual(['1']);
    // From the list itself (where a deletion leaves the focus), a key goes to that row.
    viewer.find('run-list')!.focus();
    await viewer.act(() => viewer!.find('run-list')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true })));
    expect(document.activeElement).toBe(viewer.findAll('run-item')[0]!.querySelector('button'));
    // The row focused last deleted: the one now in its place takes the stop, not the first.
    await viewer.act(() => (viewer!.model.query.value = ''));
    await viewer.act(() => viewer!.model.close());
    await viewer.act(() => viewer!.findAll('run-item')[5]!.querySelector('button')!.focus());
    const deleted = viewer.findAll('run-item')[5]!.getAttribute('data-run-id')!;
    await viewer.act(() => viewer!.model.deleteRuns([deleted]));
    expect(runIds(viewer)).not.toContain(deleted);
    expect(tabStops()).toEqual(['6']);
  }, manyRowsMs);

  it('draws a search’s first fifty, each placed among the runs it found, and fifty again once the search changes', async () => {
    viewer = await mountViewer(await storeWithCopies(250));
    await viewer.act(() => (viewer!.model.query.value = 'request 1'));
    expect(viewer.find('run-count')?.textContent).toBe('111 of 250 runs');
    expect(runIds(viewer)).toHaveLength(50);
    expect(place(viewer, 49)).toEqual(['50', '111']);
    expect(viewer.find('more-runs')?.textContent).toBe('Show 50 more runs (61 not shown yet)');
    await viewer.click(viewer.find('more-runs'));
    expect(runIds(viewer)).toHaveLength(100);
    // Going back to the same search draws its first fifty, not all it had drawn.
    await viewer.act(() => (viewer!.model.query.value = 'request 10'));
    await viewer.act(() => (viewer!.model.query.value = 'request 1'));
    expect(runIds(viewer)).toHaveLength(50);
  }, manyRowsMs);

  it('deletes every run a search found, those not drawn yet too, when "Delete matching" is confirmed', async () => {
    viewer = await mountViewer(await storeWithCopies(250));
    await viewer.act(() => (viewer!.model.query.value = 'request 1'));
    expect(runIds(viewer)).toHaveLength(50);
    await viewer.click(viewer.find('delete-all'));
    expect(viewer.find('confirm-delete-all')?.textContent).toBe('Delete 111 matching runs');
    await viewer.click(viewer.find('confirm-delete-all'));
    await viewer.until(() => viewer!.find('notice-text')?.textContent === 'Deleted 111 runs.', 'the deletion');
    // The notice comes first; the list is read again after it.
    await viewer.until(() => viewer!.find('run-count')?.textContent === '0 of 139 runs', 'the list read again');
    expect(runIds(viewer)).toHaveLength(0);
  }, manyRowsMs);

  it('draws the open run and marks it however far down the list it is, as when its address opened it', async () => {
    viewer = await mountViewer(await storeWithCopies(250));
    // Newest first: the run at place 201 is the 50th recorded.
    await viewer.act(() => viewer!.model.open('copy-49'));
    const items = viewer.findAll('run-item');
    expect(items).toHaveLength(201);
    expect(items[200]?.dataset.runId).toBe('copy-49');
    expect(items[200]?.querySelector('button')?.getAttribute('aria-current')).toBe('true');
    expect(viewer.find('more-runs')?.textContent).toBe('Show 49 more runs (49 not shown yet)');
  }, manyRowsMs);

  it('says why a run ended without an answer in the words the side panel gave, beside its outcome', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    recorder.startRun({ runId: 'thoughts', tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'e', model: 'm', request: 'q', startedAt: Date.now() });
    recorder.record('thoughts', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'q' }] });
    recorder.record('thoughts', { type: 'step-end', step: 1, raw: '<think>Hmm.</think>', parsed: { text: '', calls: [], errors: [] }, usage: {}, modelMs: 5 });
    const notice = 'The model gave no answer: it wrote only its thinking. Ask again, or pick another model in the options.';
    recorder.endRun('thoughts', 'error', Date.now(), notice);
    recorder.startRun({ runId: 'fine', tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'e', model: 'm', request: 'q', startedAt: Date.now() });
    recorder.endRun('fine', 'answer', Date.now());
    await recorder.flush();
    viewer = await mountViewer(store);
    await viewer.act(() => viewer!.model.open('thoughts'));
    expect(viewer.find('run-outcome')?.textContent).toBe('Error');
    expect(viewer.find('run-notice')?.textContent).toBe(notice);
    // A search typed in Arabic or Hebrew reads in its own direction.
    expect(viewer.find('run-search')?.getAttribute('dir')).toBe('auto');
    await viewer.act(() => viewer!.model.open('fine'));
    expect(viewer.find('run-notice')).toBeNull();
  });

  it('keeps the first step of a live run open when its second step arrives', async () => {
    const store = await openTestStore();
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    recorder.startRun({ runId: 'live', tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'e', model: 'm', request: 'q', startedAt: Date.now() });
    recorder.record('live', { type: 'step-start', step: 1, tools: [], messages: [{ role: 'user', content: 'q' }] });
    recorder.record('live', { type: 'step-end', step: 1, raw: 'x', parsed: { text: 'x', calls: [], errors: [] }, usage: {}, modelMs: 5 });
    await recorder.flush();
    viewer = await mountViewer(store, new Map(), 5);
    await viewer.act(() => viewer!.model.open('live'));
    const first = () => viewer!.findAll('step')[0] as HTMLDetailsElement;
    expect(first().open).toBe(true);
    recorder.record('live', { type: 'step-start', step: 2, tools: [], messages: [{ role: 'user', content: 'q' }] });
    await recorder.flush();
    await viewer.until(() => viewer!.findAll('step').length === 2, 'step 2');
    expect(first().open).toBe(true);
    recorder.endRun('live', 'stopped', Date.now());
    await recorder.flush();
    await viewer.until(() => viewer!.find('run-outcome')?.textContent === 'Stopped', 'the end of the run');
  });
});
