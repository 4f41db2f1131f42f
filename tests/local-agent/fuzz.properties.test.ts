import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';
import { readToolCalls } from '../../lib/local-agent/parsing/read-tool-calls';
import { createProseFilter } from '../../lib/local-agent/prose-filter';
import { createFencedCallHolder, noFencedCalls } from '../../lib/local-agent/fenced-call-holder';
import { mayOpenCodeCall, withCallsWrittenAsCode } from '../../lib/local-agent/calls-written-as-code';
import { fencedBlocks } from '../../lib/local-agent/parsing/fences';
import { mayOpenFencedCall } from '../../lib/local-agent/parsing/read-fenced-calls';
import { isEmptyFence } from '../../lib/local-agent/parsing/empty-fence';
import { hermesFormat, lfm2Format, llama3JsonFormat, promptApiFormat } from '../../lib/local-agent/formats';

// Cases per property: 10^4 by default; `npm run fuzz` asks for 10^6.
const runs = Number(process.env['FUZZ_RUNS']) || 10_000;
const timeout = 10_000 + runs * 2;
const parameters = { numRuns: runs };
const names = new Set(['f', 'search', 'open_cart']);

const markup = [
  '<tool_call>', '</tool_call>', '<|tool_call_start|>', '<|tool_call_end|>', '<think>', '</think>',
  '<tool_', '<|tool_call_', '</thi', '<', '|', '>', '/',
];
const syntax = [
  '{', '}', '[', ']', '(', ')', '"', "'", ',', ':', ';', '=', '\\', ' ', '\n', '```', '```json',
  '"name"', '"arguments"', '"parameters"', '"type"', '"tool_call"', 'search', 'f', 'True', 'None', '1', '-0.5',
  '<function=', '</function>', '<parameter=', '[TOOL_CALLS]', "b'", 'r"', '"""', '\\u00', '\\x', '__proto__',
];

/** Text made of markup and syntax fragments mixed with arbitrary characters. */
const fragmentText = fc
  .array(fc.oneof(fc.constantFrom(...markup, ...syntax), fc.string({ maxLength: 3, unit: 'binary' })), { maxLength: 60 })
  .map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ maxLength: 300, unit: 'binary' }), fragmentText);

/** A text, and the same text cut into chunks of random sizes (empty ones included). */
const chunked = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.array(fc.nat(), { maxLength: 20 })).map(([whole, cuts]) => {
    const bounds = [0, ...cuts.map((cut) => cut % (whole.length + 1)).sort((a, b) => a - b), whole.length];
    const chunks = bounds.slice(1).map((end, index) => whole.slice(bounds[index], end));
    return { whole, chunks };
  });

function filterAll(chunks: readonly string[]): string {
  const filter = createProseFilter();
  return chunks.map((chunk) => filter.push(chunk)).join('') + filter.flush();
}

const isPlainObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

describe('parseToolCalls on arbitrary text', () => {
  it('never throws, even without its final guard, and returns well-formed results', { timeout }, () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const inner = readToolCalls(text, names);
        expect(parseToolCalls(text, names)).toEqual(inner);
        expect(typeof inner.text).toBe('string');
        for (const call of inner.calls) {
          expect(names.has(call.name)).toBe(true);
          expect(isPlainObject(call.arguments)).toBe(true);
        }
        for (const error of inner.errors) expect(error).toMatch(/^(Unknown tool "|Arguments for "|Couldn't read a tool call: )/);
      }),
      parameters,
    );
  });
});

describe('the prose filter on arbitrary text', () => {
  it('gives the same output in one push, one character at a time and in random chunks', { timeout }, () => {
    fc.assert(
      fc.property(chunked(anyText), ({ whole, chunks }) => {
        const once = filterAll([whole]);
        expect(filterAll(chunks)).toBe(once);
        expect(filterAll([...whole])).toBe(once);
      }),
      parameters,
    );
  });

  it('shows exactly the prose parseToolCalls leaves, where the reply has no JSON or fence', { timeout }, () => {
    const tagText = fc
      .array(fc.oneof(fc.constantFrom(...markup, 'a', ' ', '\n', 'x y'), fc.string({ maxLength: 3, unit: 'grapheme-ascii' })), {
        maxLength: 40,
      })
      .map((parts) => `<think>r</think>${parts.join('')}`)
      .filter((text) => !/[[{`]/.test(text));
    fc.assert(
      fc.property(tagText, (text) => {
        expect(filterAll([text]).trim()).toBe(parseToolCalls(text, names).text);
      }),
      parameters,
    );
  });

  // The guarantee: where every `<` of the reply begins a tag and every region but the last is
  // closed, not one character of markup reaches the output (there is no `<` in it at all).
  it('lets no markup through when the reply is well formed, however it is chunked', { timeout }, () => {
    const inner = fc.string({ maxLength: 20, unit: 'binary' }).map((text) => text.replaceAll('<', ''));
    const region = fc.tuple(fc.constantFrom(['<think>', '</think>'], ['<tool_call>', '</tool_call>'], ['<|tool_call_start|>', '<|tool_call_end|>']), inner);
    const reply = fc
      .tuple(fc.array(fc.tuple(inner, region), { maxLength: 8 }), inner, fc.boolean())
      .map(([pairs, tail, closeLast]) =>
        pairs
          .map(([prose, [[open, close], content]], index) => prose + open + content + (closeLast || index < pairs.length - 1 ? close : ''))
          .join('') + (closeLast ? tail : ''),
      );
    fc.assert(
      fc.property(chunked(reply), ({ chunks }) => {
        expect(filterAll(chunks)).not.toContain('<');
      }),
      parameters,
    );
  });
});

describe('createFencedCallHolder on arbitrary text', () => {
  const fencedText = fc
    .array(fc.oneof(fc.constantFrom('```', '`', '``', '```json\n', '\n', 'q'), fc.string({ maxLength: 4, unit: 'binary' })), { maxLength: 40 })
    .map((parts) => parts.join(''));

  it('loses nothing and reorders nothing when no block is a call, however the text is chunked', { timeout }, () => {
    fc.assert(
      fc.property(chunked(fc.oneof(anyText, fencedText)), ({ whole, chunks }) => {
        const holder = createFencedCallHolder(noFencedCalls);
        expect(chunks.map((chunk) => holder.push(chunk)).join('') + holder.flush()).toBe(whole);
      }),
      parameters,
    );
  });

  it('shows the same text in one push as in random chunks, when blocks are judged by their text', { timeout }, () => {
    // A block with a "q" is never a call, and shows as it streams once its start has one.
    const judge = { isCall: (block: string) => block.length % 2 === 0 && !block.includes('q'), endsProse: () => true, mayBeCall: (start: string) => !start.includes('q') };
    fc.assert(
      fc.property(chunked(fencedText), ({ whole, chunks }) => {
        const once = createFencedCallHolder(judge);
        const pieces = createFencedCallHolder(judge);
        expect(chunks.map((chunk) => pieces.push(chunk)).join('') + pieces.flush()).toBe(once.push(whole) + once.flush());
      }),
      parameters,
    );
  });
});

describe('withCallsWrittenAsCode on arbitrary text', () => {
  const formats = [hermesFormat, lfm2Format, llama3JsonFormat, promptApiFormat];
  const value = fc.oneof(fc.constantFrom('1', '"mug"', "'a'", 'True', 'None', '[1, 2]', '{"k": 2}'), fc.string({ maxLength: 4 }));
  const call = fc.tuple(fc.constantFrom('f', 'search', 'open_cart', 'other'), fc.array(fc.tuple(fc.constantFrom('q', 'n'), value), { maxLength: 3 }), fc.constantFrom(')', '', '))', ') x'));
  const calls = fc.array(call, { minLength: 1, maxLength: 4 }).map((list) => list.map(([name, args, end]) => `${name}(${args.map(([key, arg]) => `${key}=${arg}`).join(', ')}${end}`));
  /** Prose, then calls written as code: on lines, in a list, or in a block, with slips of every kind. */
  const codeText = fc
    .tuple(anyText, calls, fc.constantFrom('\n', ', ', ',\n'), fc.constantFrom(['', ''], ['[', ']'], ['```tool_code\n', '\n```'], ['```python\n', ''], ['```js\n', '\n```']), anyText)
    .map(([prose, written, separator, [open, close], after]) => `${prose}\n${open}${written.join(separator)}${close}${after.length % 3 === 0 ? after : ''}`);
  // A call written as code runs nothing: the reading only takes code off the end of the prose and says why.
  it('never throws, runs nothing, and keeps a start of the prose', { timeout }, () => {
    fc.assert(
      fc.property(fc.oneof(anyText, codeText), fc.constantFrom(...formats), (text, format) => {
        const prose = parseToolCalls(text, names);
        const read = withCallsWrittenAsCode(prose, names, format);
        expect(read.calls).toEqual(prose.calls);
        expect(prose.text.startsWith(read.text)).toBe(true);
        expect(read.errors.length - prose.errors.length).toBeLessThanOrEqual(1);
      }),
      parameters,
    );
  });
});

describe('the start of a fenced block, read before it closes', () => {
  const language = fc.constantFrom('', 'json', 'python', 'py', 'tool_code', 'js', 'html', 'search', 'text');
  const fragments = fc
    .array(fc.oneof(fc.constantFrom(...syntax, 'search(q=1)', 'open_cart()', '[f(', 'print(', '<calls>', '<div>', '[{', '{"name": "f", "arguments": {}}'), fc.string({ maxLength: 3, unit: 'binary' })), { maxLength: 16 })
    .map((parts) => parts.join(''));
  const code = fc.constantFrom('search(q=1)', ' open_cart()\n', '[f(n=2), search(q="a")]', 'f (x=1)\nsearch()', '\n [ open_cart( ) ]', 'searc', 'print(f())');
  const body = fc.oneof(fragments, code);
  /** A block as the fence holder judges it: from its opening fence to the fence that closes it, if one does. */
  const block = fc
    .tuple(fc.constantFrom('```', '````'), language, fc.constantFrom('\n', ' ', ''), body, fc.constantFrom('\n```', '```', '\n````', ''))
    .map(([fence, name, space, text, close]) => {
      const written = `${fence}${name}${space}${text}${close}`;
      const first = fencedBlocks(written)[0];
      return first?.open.at === 0 ? written.slice(0, first.close?.end ?? written.length) : fence;
    });

  // A block shown as it streams is never hidden: every block the parse reads as a call must be held from its fence on.
  it('is never taken for prose where the whole block reads as a call', { timeout }, () => {
    fc.assert(
      fc.property(block, fc.constantFrom(hermesFormat, lfm2Format, llama3JsonFormat), (text, format) => {
        const parsed = withCallsWrittenAsCode(parseToolCalls(text, names), names, format);
        if (!isEmptyFence(text) && parsed.calls.length === 0 && parsed.errors.length === 0) return;
        for (let end = 3; end <= text.length; end += 1) {
          const start = text.slice(0, Math.min(end, 256));
          expect(mayOpenFencedCall(start) || mayOpenCodeCall(start, names), start).toBe(true);
        }
      }),
      parameters,
    );
  });
});
