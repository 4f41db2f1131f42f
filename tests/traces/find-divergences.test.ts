import { describe, expect, it } from 'vitest';
import { describeDivergence } from '@/lib/traces/describe-trace';
import { findDivergences, firstDivergentStep } from '@/lib/traces/find-divergences';
import type { TraceCall, TraceProblem, TraceStep } from '@/lib/traces/trace-schema';

const schemas: Record<string, Record<string, unknown>> = {
  search_products: { type: 'object', properties: { query: { type: 'string' } } },
  open_product: { type: 'object', properties: { slug: { type: 'string' } } },
  add_to_cart: { type: 'object', properties: { qty: { type: 'integer' } }, required: ['qty'] },
};

const tool = (name: string) => ({ name, description: `The ${name} tool.`, parameters: schemas[name] ?? { type: 'object' }, score: 1 });

function ran(callId: string, name: string, args: Record<string, unknown>, text: string, isError?: boolean): TraceCall {
  return { callId, name, arguments: args, calledAt: 0, result: { text, length: text.length, durationMs: 3, endedAt: 3, ...(isError ? { isError } : {}) } };
}

function step(number: number, tools: string[], calls: TraceCall[] = [], problems: TraceProblem[] = []): TraceStep {
  return { runId: 'r', step: number, startedAt: number * 100, tools: tools.map(tool), messages: [], raw: '', complete: true, prose: '', calls, problems, usage: {} };
}

/** A shop run: search, then add to cart (a tool the page offers once a product is open), then answer. */
const recording = [
  step(1, ['search_products', 'open_product'], [ran('1.1', 'search_products', { query: 'mug' }, '{"products":["enamel-mug"],"count":1}')]),
  step(2, ['search_products', 'open_product', 'add_to_cart'], [ran('2.1', 'add_to_cart', { qty: 2 }, '{"itemCount":2}')]),
  step(3, ['search_products', 'open_product', 'add_to_cart']),
];

describe('findDivergences', () => {
  it('finds none when the replay went as recorded, whatever the key order and spacing of JSON results', () => {
    const replay = structuredClone(recording);
    replay[0]!.calls[0]!.result!.text = '{ "count": 1, "products": ["enamel-mug"] }';
    replay[1]!.tools.reverse();
    expect(findDivergences(recording, replay)).toEqual([]);
    expect(firstDivergentStep([])).toBeUndefined();
  });

  it('reports a tool renamed on the page at step 2, where the model calls it, and nowhere earlier', () => {
    const renamed = ['search_products', 'open_product', 'add_item'];
    const message = 'Unknown tool "add_to_cart". Available now: search_products, open_product, add_item.';
    const replay = [
      recording[0]!,
      step(2, renamed, [], [{ kind: 'unknown-tool', message }]),
      step(3, renamed),
    ];
    const divergences = findDivergences(recording, replay);
    expect(firstDivergentStep(divergences)).toBe(2);
    expect(divergences).toEqual([
      { type: 'tool-list', step: 2, added: ['add_item'], removed: ['add_to_cart'], changed: [] },
      { type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'unknown-tool', message },
      { type: 'tool-list', step: 3, added: ['add_item'], removed: ['add_to_cart'], changed: [] },
    ]);
  });

  it('reports a call that now fails validation, and the changed schema behind it', () => {
    const problem = 'Missing required argument "quantity".';
    const changedTools = recording[1]!.tools.map((shown) => (shown.name === 'add_to_cart' ? { ...shown, parameters: { type: 'object', required: ['quantity'] } } : shown));
    const replay = [
      recording[0]!,
      { ...step(2, [], [{ callId: '2.1', name: 'add_to_cart', arguments: { qty: 2 }, calledAt: 0 }], [{ kind: 'invalid-arguments', callId: '2.1', name: 'add_to_cart', message: problem }]), tools: changedTools },
      recording[2]!,
    ];
    expect(findDivergences(recording, replay)).toEqual([
      { type: 'tool-list', step: 2, added: [], removed: [], changed: ['add_to_cart'] },
      { type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'invalid-arguments', message: problem },
    ]);
  });

  it('reports a result the page now gives differently, with both texts, and an error that was not one', () => {
    const replay = structuredClone(recording);
    replay[0]!.calls[0] = ran('1.1', 'search_products', { query: 'mug' }, '{"products":[],"count":0}');
    replay[1]!.calls[0] = ran('2.1', 'add_to_cart', { qty: 2 }, '{"itemCount":2}', true);
    expect(findDivergences(recording, replay)).toEqual([
      {
        type: 'result',
        step: 1,
        name: 'search_products',
        recorded: { text: '{"products":["enamel-mug"],"count":1}' },
        replayed: { text: '{"products":[],"count":0}' },
      },
      { type: 'result', step: 2, name: 'add_to_cart', recorded: { text: '{"itemCount":2}' }, replayed: { text: '{"itemCount":2}', isError: true } },
    ]);
  });

  it('reports a replay that stopped early, a call the person skipped, and a call that now runs', () => {
    const declined: TraceProblem = { kind: 'declined', callId: '2.1', name: 'add_to_cart', message: 'The user declined the call to add_to_cart.' };
    const replay = [recording[0]!, step(2, recording[1]!.tools.map((shown) => shown.name), [{ ...recording[1]!.calls[0]!, result: undefined }], [declined])];
    expect(findDivergences(recording, replay)).toEqual([
      { type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'declined', message: declined.message },
      { type: 'steps', step: 3, recorded: 3, replayed: 2 },
    ]);
    const unknownThen = [step(1, ['search_products'], [], [{ kind: 'unknown-tool', message: 'Unknown tool "open_product". Available now: search_products.' }])];
    const runsNow = [step(1, ['search_products'], [ran('1.1', 'open_product', { slug: 'x' }, '{}')])];
    expect(findDivergences(unknownThen, runsNow)).toEqual([{ type: 'call', step: 1, name: 'open_product', recorded: 'unknown-tool', replayed: 'ran' }]);
  });

  it('says a call whose tool the page changed before it ran was made, and did not run, not that it was never made', () => {
    const message = 'The page removed the tool add_to_cart while the user was being asked about this call, so it did not run.';
    const withdrawn: TraceProblem = { kind: 'unknown-tool', callId: '2.1', name: 'add_to_cart', message, withdrawn: true };
    const recorded = [recording[0]!, step(2, recording[1]!.tools.map((shown) => shown.name), [{ ...recording[1]!.calls[0]!, result: undefined }], [withdrawn]), recording[2]!];
    expect(findDivergences(recorded, recording)).toEqual([{ type: 'call', step: 2, name: 'add_to_cart', recorded: 'unknown-tool', replayed: 'ran' }]);
  });

  it('says a call the run was stopped or timed out in was made and cut off, not never made; one cut off again agrees', () => {
    const cutOff = (steps: TraceStep[]) => [steps[0]!, { ...steps[1]!, calls: [{ ...steps[1]!.calls[0]!, result: undefined }] }];
    const [stopped] = findDivergences(cutOff(recording), recording);
    expect(stopped).toEqual({ type: 'call', step: 2, name: 'add_to_cart', recorded: 'cut-off', replayed: 'ran' });
    expect(describeDivergence(stopped!)).toBe('add_to_cart was cut off as the run stopped in the recording, and now ran.');
    // A tool that hangs, timed out in the recording and again in the replay: nothing differs.
    expect(findDivergences(cutOff(recording), cutOff(recording))).toEqual([]);
  });

  it('says the later calls of a reply whose call was cut off never began, rather than that they were cut off too', () => {
    const calls = [ran('1.1', 'search_products', { query: 'mug' }, '[]'), ran('1.2', 'open_product', { slug: 'a' }, '{}'), ran('1.3', 'open_product', { slug: 'b' }, '{}')];
    const recorded = [step(1, ['search_products', 'open_product'], calls.map((call, index) => (index === 0 ? call : { ...call, result: undefined })))];
    const replayed = [step(1, ['search_products', 'open_product'], calls)];
    const said = findDivergences(recorded, replayed).map(describeDivergence);
    expect(said).toEqual([
      'open_product was cut off as the run stopped in the recording, and now ran.',
      'open_product never began, as the run stopped at a call before it in the recording, and now ran.',
    ]);
  });

  it('says a call the model wrote twice in one reply, which ran twice in the recording, now ran once', () => {
    const twice = [recording[0]!, step(2, recording[1]!.tools.map((shown) => shown.name), [recording[1]!.calls[0]!, { ...recording[1]!.calls[0]!, callId: '2.2' }]), recording[2]!];
    const duplicate: TraceProblem = { kind: 'duplicate', callId: '2.2', name: 'add_to_cart', message: 'The same call as the one above, in the same reply.' };
    const replay = structuredClone(twice);
    replay[1]!.calls[1]!.result = undefined;
    replay[1]!.problems.push(duplicate);
    const divergences = findDivergences(twice, replay);
    expect(divergences).toEqual([{ type: 'call', step: 2, name: 'add_to_cart', recorded: 'ran', replayed: 'duplicate', message: duplicate.message }]);
    expect(describeDivergence(divergences[0]!)).toBe('add_to_cart ran in the recording, and now was not run, the same call as one before it.');
  });

  // Traces recorded before each copy was answered in its place hold one problem per missing name.
  it('finds none where both sides say only that a tool was missing, one problem per copy or one per name', () => {
    const message = 'Unknown tool "get_price". Available now: search_products, open_product.';
    const missing: TraceProblem = { kind: 'unknown-tool', name: 'get_price', message };
    const searched = recording[0]!.calls;
    const oldTrace = [step(1, ['search_products', 'open_product'], searched, [missing])];
    const replay = [step(1, ['search_products', 'open_product'], searched, [missing, missing])];
    expect(findDivergences(oldTrace, replay)).toEqual([]);
    expect(findDivergences(replay, oldTrace)).toEqual([]);
  });

  it('still reports each copy of a call the recording ran to a tool the replay lacks', () => {
    const message = 'Unknown tool "open_product". Available now: search_products.';
    const opened = [ran('1.1', 'open_product', { slug: 'mug' }, '{}'), ran('1.2', 'open_product', { slug: 'cap' }, '{}')];
    const recorded = [step(1, ['search_products', 'open_product'], opened)];
    const replay = [step(1, ['search_products'], [], [{ kind: 'unknown-tool', name: 'open_product', message }, { kind: 'unknown-tool', name: 'open_product', message }])];
    const lost = { type: 'call', step: 1, name: 'open_product', recorded: 'ran', replayed: 'unknown-tool', message };
    expect(findDivergences(recorded, replay).filter((divergence) => divergence.type === 'call')).toEqual([lost, lost]);
  });
});
