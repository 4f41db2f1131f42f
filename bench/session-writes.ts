// What saving a tab's chat costs while a reply streams into it: a tab with about 3 MB of chat
// (long tool results, many turns), a reply written every 300 ms as the worker does, each write
// through a storage area that turns what it is given into JSON as the browser does; the same for
// a reply that streams after a long tool result in its own turn; then what Chromium's own session
// storage takes for a write of either size, in the built extension's worker.
// `npm run bench session-writes` (build first for the Chromium table).
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { chromiumAvailable, currentServiceWorker, launchExtension } from '../tests/e2e/support';
import type { StoredSession } from '../lib/agent/session-store';
import type { Turn } from '../lib/agent/session-state';
import type { BenchSection } from './bench-section';
import { runDirectly } from './run-directly';

const settledTurns = 40;
const toolResultCharacters = 72_000;
const streamedWrites = 100;
// About 300 ms of a reply at 100 tokens a second.
const charactersPerWrite = 120;

function settledTurn(index: number): Turn {
  return {
    id: `turn-${index}`,
    request: `Find the orders of week ${index}`,
    items: [
      { kind: 'prose', text: `Looking up week ${index}. `.repeat(20) },
      { kind: 'tool', callId: `call-${index}`, name: 'list_orders', arguments: { week: index }, state: 'done', result: JSON.stringify({ orders: 'x'.repeat(toolResultCharacters) }), durationMs: 40 },
      { kind: 'prose', text: `Week ${index} had many orders. `.repeat(40) },
    ],
    startedAt: index,
    outcome: 'answer',
    endedAt: index + 1,
  };
}

interface Write {
  ms: number;
  bytes: number;
  keys: number;
}

/** Session storage as the worker sees it, each write counted: its keys, its bytes as JSON, its time. */
function countedStorage(): { writes: Write[]; measure: <T>(run: () => Promise<T>) => Promise<T> } {
  const writes: Write[] = [];
  const set = fakeBrowser.storage.session.set.bind(fakeBrowser.storage.session);
  let pending: Omit<Write, 'ms'> | undefined;
  fakeBrowser.storage.session.set = async (items: Record<string, unknown>) => {
    // The browser turns every value it is given into its own form, a cost that grows with the bytes.
    const bytes = Object.values(items).reduce<number>((sum, value) => sum + Buffer.byteLength(JSON.stringify(value)), 0);
    pending = { bytes: (pending?.bytes ?? 0) + bytes, keys: (pending?.keys ?? 0) + Object.keys(items).length };
    await set(items);
  };
  const measure = async <T>(run: () => Promise<T>): Promise<T> => {
    pending = undefined;
    const started = performance.now();
    const result = await run();
    const ms = performance.now() - started;
    // Set by the storage call the run made, if it made one.
    const written = pending as Omit<Write, 'ms'> | undefined;
    if (written) writes.push({ ms, ...written });
    return result;
  };
  return { writes, measure };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kB = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1000).toFixed(1)} kB`);

/** The store as the worker makes it, over the fake browser's session storage. */
async function loadSessionStore() {
  (globalThis as { chrome?: unknown }).chrome = fakeBrowser;
  return (await import('../lib/agent/session-store')).createSessionStore;
}

/** What the writes made while a reply streamed come to: how many, their bytes and their time. */
function streamedFigures(streamed: Write[]): Record<string, string | number> {
  return {
    'writes while streaming': streamed.length,
    'bytes a write (median)': kB(median(streamed.map((write) => write.bytes))),
    'bytes a write (largest)': kB(Math.max(...streamed.map((write) => write.bytes))),
    'bytes written while streaming': kB(streamed.reduce((sum, write) => sum + write.bytes, 0)),
    'ms a write (median)': median(streamed.map((write) => write.ms)).toFixed(2),
    'ms a write (longest)': Math.max(...streamed.map((write) => write.ms)).toFixed(2),
  };
}

/** A chat of `settledTurns` turns, as it is at the start of a reply. */
function longChat(): { turns: Turn[]; history: StoredSession['history'] } {
  const turns = Array.from({ length: settledTurns }, (_, index) => settledTurn(index));
  const history = turns.slice(-3).flatMap((turn) => [
    { role: 'user' as const, content: turn.request },
    { role: 'assistant' as const, content: `Week ${turn.startedAt} had many orders.` },
  ]);
  return { turns, history };
}

async function storeWrites(): Promise<BenchSection> {
  const createSessionStore = await loadSessionStore();
  const rows: Array<Record<string, string | number>> = [];
  for (let run = 0; run < 3; run += 1) {
    fakeBrowser.reset();
    const { writes, measure } = countedStorage();
    const { turns, history } = longChat();
    let session: StoredSession = { turns, history };
    const store = createSessionStore(() => new Map([[7, session]]), { delayMs: 0 });
    await measure(() => store.flush());
    const chatBytes = writes.at(-1)?.bytes ?? 0;
    writes.length = 0;

    let streaming: Turn = { id: 'streaming', request: 'Which week had the most orders?', items: [{ kind: 'prose', text: '' }], startedAt: 100 };
    session = { ...session, turns: [...turns, streaming], runGoingOn: { readUntrusted: false } };
    await measure(() => store.flush());
    const started = writes.length;
    for (let index = 0; index < streamedWrites; index += 1) {
      const prose = streaming.items[0]!.kind === 'prose' ? streaming.items[0]!.text : '';
      streaming = { ...streaming, items: [{ kind: 'prose', text: prose + 'Week 12 had the most. '.repeat(charactersPerWrite / 22 + 1).slice(0, charactersPerWrite) }] };
      session = { ...session, turns: [...turns, streaming] };
      await measure(() => store.flush());
    }
    const streamed = writes.slice(started);
    session = { turns: [...turns, { ...streaming, outcome: 'answer', endedAt: 200 }], history: [...history, { role: 'user', content: streaming.request }] };
    await measure(() => store.flush());
    const settle = writes.at(-1)!;
    rows.push({
      run: run + 1,
      'chat stored': kB(chatBytes),
      ...streamedFigures(streamed),
      'write as the turn ends': `${kB(settle.bytes)}, ${settle.ms.toFixed(1)} ms`,
    });
  }
  return {
    title: 'Saving a 3 MB chat while a reply streams (Node, fake session storage)',
    rows,
    notes: [
      `${settledTurns} settled turns with a ${toolResultCharacters / 1000} kB tool result each; ${streamedWrites} writes of a reply growing by ${charactersPerWrite} characters, as the worker writes it every 300 ms.`,
      'A write is timed from the store being asked to write to the storage call answering; the bytes are what the storage area was given, as JSON.',
    ],
  };
}

const longResultCharacters = 20_000;

/** A reply streaming in the turn that just read a long tool result: what each write holds. */
async function longTurnWrites(): Promise<BenchSection> {
  const createSessionStore = await loadSessionStore();
  const rows: Array<Record<string, string | number>> = [];
  for (let run = 0; run < 3; run += 1) {
    fakeBrowser.reset();
    const { writes, measure } = countedStorage();
    const card: Turn['items'][number] = { kind: 'tool', callId: 'call-1', name: 'list_orders', arguments: { week: 12 }, state: 'done', result: 'x'.repeat(longResultCharacters), durationMs: 40 };
    const opening: Turn['items'][number] = { kind: 'prose', text: 'Looking up the orders of week 12. ' };
    let prose = '';
    const turnWith = (text: string): Turn => ({ id: 'streaming', request: 'Which order was the largest?', items: [opening, card, { kind: 'prose', text }], startedAt: 100 });
    let session: StoredSession = { turns: [turnWith(prose)], history: [], runGoingOn: { readUntrusted: false } };
    const store = createSessionStore(() => new Map([[7, session]]), { delayMs: 0 });
    await measure(() => store.flush());
    const started = writes.length;
    for (let index = 0; index < streamedWrites; index += 1) {
      prose += 'The largest was order 4. '.repeat(charactersPerWrite / 25 + 1).slice(0, charactersPerWrite);
      session = { ...session, turns: [turnWith(prose)] };
      await measure(() => store.flush());
    }
    const streamed = writes.slice(started);
    rows.push({ run: run + 1, ...streamedFigures(streamed) });
  }
  return {
    title: 'A reply streaming after a long tool result in its own turn (Node, fake session storage)',
    rows,
    notes: [
      `One turn: a line of prose, a tool card with a ${longResultCharacters.toLocaleString('en')}-character result, then ${streamedWrites} writes of a reply growing by ${charactersPerWrite} characters, as the worker writes it every 300 ms.`,
    ],
  };
}

/**
 * What `chrome.storage.session.set` takes in the service worker for the two sizes of write: the
 * whole chat with the streaming turn in it, and the streaming turn alone (median of 20 each).
 */
async function browserWrites(): Promise<BenchSection> {
  const title = "The same writes in Chromium's session storage (headless, the built extension's service worker)";
  if (!chromiumAvailable) return { title, rows: [], notes: ['Skipped: no Chromium.'] };
  const extension = await launchExtension();
  try {
    const worker = await currentServiceWorker(extension.context);
    const { turns, history } = longChat();
    const streaming: Turn = { id: 'streaming', request: 'Which week had the most orders?', items: [{ kind: 'prose', text: 'Week 12 had the most. '.repeat(280) }], startedAt: 100 };
    const timings = await worker.evaluate(
      async ({ chat, turn }) => {
        const { session } = (globalThis as unknown as { chrome: { storage: { session: { set(items: object): Promise<void>; clear(): Promise<void> } } } }).chrome.storage;
        // No named function in here: tsx would name it through a helper the worker lacks.
        const medians: number[] = [];
        for (const items of [{ 'bench:whole': chat }, { 'bench:turn': turn }]) {
          const times: number[] = [];
          for (let index = 0; index < 20; index += 1) {
            const started = performance.now();
            await session.set(items);
            times.push(performance.now() - started);
          }
          medians.push(times.sort((a, b) => a - b)[10]!);
        }
        await session.clear();
        return { whole: medians[0]!, alone: medians[1]! };
      },
      { chat: { turns: [...turns, streaming], history }, turn: streaming },
    );
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    return {
      title,
      rows: [
        { write: 'the whole chat, streaming turn in it', bytes: (bytes({ turns: [...turns, streaming], history }) / 1e6).toFixed(2) + ' MB', 'ms (median of 20)': timings.whole.toFixed(2) },
        { write: 'the streaming turn alone', bytes: (bytes(streaming) / 1000).toFixed(1) + ' kB', 'ms (median of 20)': timings.alone.toFixed(2) },
      ],
      notes: ['Timed in the worker from the call to its answer: the worker turns the value into the browser\'s form on its own thread, then the browser stores it.'],
    };
  } finally {
    await extension.close();
  }
}

export async function benchSessionWrites(): Promise<BenchSection[]> {
  return [await storeWrites(), await longTurnWrites(), await browserWrites()];
}

await runDirectly(import.meta.url, benchSessionWrites);
