import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeTool, type ToolContext } from '@/lib/webmcp/sanitize-tool';
import { sanitizeTools, type OfferedTool } from '@/lib/webmcp/sanitize-tools';
import { toolLimits } from '@/lib/webmcp/tool-limits';
import { toolsReportSchema } from '@/lib/messaging/protocol';
import { documentLanguage, reportedToolSchema } from '@/lib/webmcp/reported-tool';
import { z } from 'zod/mini';

const origin = 'https://shop.example';
const context = { origin, source: 'native' as const };
const nameRule = 'the name must be 1–128 characters of A–Z, a–z, 0–9, "_", "." or "-"';

function refusal(tool: unknown): string {
  const result = sanitizeTool(tool, context);
  if (result.ok) throw new Error(`expected ${JSON.stringify(tool)} to be refused`);
  return result.reason;
}

describe('sanitizeTool: what it takes', () => {
  it('copies the known fields, with the frame’s origin and the source', () => {
    const result = sanitizeTool(
      {
        name: 'add_to_cart',
        title: 'Add to cart',
        description: 'Add a product to the cart.',
        inputSchema: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] },
        annotations: { readOnlyHint: false, consequentialHint: true, destructiveHint: true, debugging: true },
        origin: 'https://evil.example',
        execute: () => 'ignored',
      },
      context,
    );
    expect(result).toEqual({
      ok: true,
      tool: {
        name: 'add_to_cart',
        title: 'Add to cart',
        description: 'Add a product to the cart.',
        inputSchema: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] },
        annotations: { readOnlyHint: false, consequentialHint: true, destructiveHint: true },
        origin,
        source: 'native',
      },
    });
  });

  it('reads MCP\'s destructiveHint as consequential, whatever consequentialHint says, and keeps it for the inspector', () => {
    for (const consequentialHint of [undefined, false]) {
      const result = sanitizeTool({ name: 'delete_account', description: 'd', annotations: { destructiveHint: true, consequentialHint } }, context);
      expect(result.ok && result.tool.annotations).toEqual({ consequentialHint: true, destructiveHint: true });
    }
    const notDestructive = sanitizeTool({ name: 'a', description: 'd', annotations: { destructiveHint: false } }, context);
    expect(notDestructive.ok && notDestructive.tool.annotations).toBeUndefined();
  });

  it('keeps the extension\'s notes on a form\'s fields, five at most and each cut short', () => {
    const notes = Array.from({ length: 7 }, (_, index) => `Note ${index} ${'x'.repeat(400)}`);
    const result = sanitizeTool({ name: 'contact_us', description: 'd' }, { ...context, formNotes: notes });
    expect(result.ok && result.tool.formNotes?.map((note) => note.length)).toEqual([300, 300, 300, 300, 300]);
    expect(result.ok && result.tool.formNotes?.[0]?.startsWith('Note 0 ')).toBe(true);
  });

  it('reads a schema given as JSON text (older Chrome), and no schema as no arguments', () => {
    const fromText = sanitizeTool({ name: 'a', description: 'd', inputSchema: '{"type":"object","properties":{}}' }, context);
    expect(fromText.ok && fromText.tool.inputSchema).toEqual({ type: 'object', properties: {} });
    const none = sanitizeTool({ name: 'b', description: 'd' }, context);
    expect(none.ok && none.tool.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('leaves out an empty title and hints that are not booleans', () => {
    const result = sanitizeTool({ name: 'a', title: '', description: 'd', annotations: { readOnlyHint: 'yes' } }, context);
    expect(result.ok && result.tool).toEqual({ name: 'a', description: 'd', inputSchema: { type: 'object', properties: {} }, origin, source: 'native' });
  });

  it('keeps a "__proto__" property of a schema as a plain property', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as unknown;
    const result = sanitizeTool({ name: 'a', description: 'd', inputSchema: schema }, context);
    expect(result.ok && Object.keys(result.tool.inputSchema.properties as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('takes names at the limits: 1 and 128 characters of the allowed set', () => {
    expect(sanitizeTool({ name: 'a', description: 'd' }, context).ok).toBe(true);
    expect(sanitizeTool({ name: `A.b-c_${'9'.repeat(122)}`, description: 'd' }, context).ok).toBe(true);
  });
});

describe('sanitizeTool: what it refuses, and why', () => {
  it.each([
    [{ description: 'd' }, 'the name is missing or not text'],
    [{ name: 42, description: 'd' }, 'the name is missing or not text'],
    [{ name: '', description: 'd' }, 'the name is missing or not text'],
    [{ name: 'bad name', description: 'd' }, nameRule],
    [{ name: 'x'.repeat(129), description: 'd' }, nameRule],
    [{ name: 'café', description: 'd' }, nameRule],
    [{ name: 'a' }, 'the description is missing or empty'],
    [{ name: 'a', description: '   ' }, 'the description is missing or empty'],
    [{ name: 'a', description: 'x'.repeat(10_001) }, 'the description is 10,001 characters, over the limit of 10,000'],
    [{ name: 'a', description: 'd', title: 7 }, 'the title is not text'],
    [{ name: 'a', description: 'd', title: 't'.repeat(257) }, 'the title is 257 characters, over the limit of 256'],
    [{ name: 'a', description: 'd', inputSchema: 42 }, 'the input schema must be a JSON object, not a number'],
    [{ name: 'a', description: 'd', inputSchema: [1, 2] }, 'the input schema must be a JSON object, not an array'],
    [{ name: 'a', description: 'd', inputSchema: 'not json {' }, 'the input schema is text that is not valid JSON'],
    [{ name: 'a', description: 'd', inputSchema: '"text"' }, 'the input schema must be a JSON object, not a string'],
    [{ name: 'a', description: 'd', inputSchema: { type: 'object', default: () => 1 } }, 'the input schema cannot be used: it holds a function, which is not JSON'],
    [{ name: 'a', description: 'd', inputSchema: { minimum: Number.NaN } }, 'the input schema cannot be used: it holds a number that is not finite'],
    [{ name: 'a', description: 'd', inputSchema: { when: new Date(0) } }, 'the input schema cannot be used: it holds an object that is not plain JSON'],
  ])('refuses %j', (tool, reason) => {
    expect(refusal(tool)).toBe(reason);
  });

  it('refuses a tool whose input schema getter throws as one whose schema cannot be read, not as one without arguments', () => {
    const throwing = Object.defineProperty({ name: 'book_flight', description: 'Books a flight.' }, 'inputSchema', { get: () => { throw new Error('zod: cannot convert z.date()'); } });
    expect(refusal(throwing)).toBe('the input schema cannot be read');
  });

  it('refuses a schema nested too deeply, or one that holds itself', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 40; level += 1) deep = { type: 'object', properties: { next: deep } };
    expect(refusal({ name: 'a', description: 'd', inputSchema: deep })).toBe('the input schema cannot be used: it is nested too deeply');
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(refusal({ name: 'a', description: 'd', inputSchema: cyclic })).toBe('the input schema cannot be used: it is nested too deeply');
  });

  it('refuses a schema over the size limit', () => {
    const schema = { type: 'object', description: 'z'.repeat(toolLimits.schemaCharacters) };
    expect(refusal({ name: 'a', description: 'd', inputSchema: schema })).toMatch(/^the input schema is 64,0\d\d characters, over the limit of 64,000$/);
  });

  it('shows a refused name as text, cut to 80 characters', () => {
    const result = sanitizeTool({ name: 'y'.repeat(200), description: 'd' }, context);
    expect(result).toMatchObject({ ok: false, name: `${'y'.repeat(80)}…` });
    expect(sanitizeTool({ name: { toString: () => 'x' } }, context)).toMatchObject({ ok: false, name: '(no name)' });
  });
});

describe('sanitizeTool: the output schema, which only describes results', () => {
  const schema = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
  const withOutput = (outputSchema: unknown, toolContext: ToolContext = context) => sanitizeTool({ name: 'cart_total', description: 'd', outputSchema }, toolContext);

  it('copies it as plain JSON, given as an object or as JSON text, like the input schema', () => {
    const given = { ...schema, example: undefined };
    const fromObject = withOutput(given);
    expect(fromObject.ok && fromObject.tool.outputSchema).toEqual(schema);
    expect(fromObject.ok && fromObject.tool.outputSchema).not.toBe(given);
    const fromText = withOutput(JSON.stringify(schema));
    expect(fromText.ok && fromText.tool.outputSchema).toEqual(schema);
    expect(fromText.ok && fromText.tool.outputSchemaProblem).toBeUndefined();
  });

  it('changes nothing where there is none', () => {
    for (const none of [undefined, null, '']) {
      expect(withOutput(none)).toEqual(sanitizeTool({ name: 'cart_total', description: 'd' }, context));
      expect(withOutput(none)).toEqual({ ok: true, tool: { name: 'cart_total', description: 'd', inputSchema: { type: 'object', properties: {} }, origin, source: 'native' } });
    }
  });

  it.each([
    ['not json {', 'the output schema is text that is not valid JSON'],
    [[schema], 'the output schema must be a JSON object, not an array'],
    ['"text"', 'the output schema must be a JSON object, not a string'],
    [42, 'the output schema must be a JSON object, not a number'],
    [{ ...schema, default: () => 1 }, 'the output schema cannot be used: it holds a function, which is not JSON'],
  ])('keeps the tool without a broken one, %j, and says why', (outputSchema, reason) => {
    const result = withOutput(outputSchema);
    expect(result).toEqual({
      ok: true,
      tool: { name: 'cart_total', description: 'd', inputSchema: { type: 'object', properties: {} }, outputSchemaProblem: reason, origin, source: 'native' },
    });
    expect(result.ok && reportedToolSchema().safeParse(result.tool).success).toBe(true);
  });

  it('keeps the tool without one over the input schema’s limits: too big, too deep, holding itself', () => {
    const big = { type: 'object', description: 'z'.repeat(toolLimits.schemaCharacters) };
    expect(withOutput(big)).toMatchObject({ ok: true, tool: { outputSchemaProblem: expect.stringMatching(/^the output schema is 64,0\d\d characters, over the limit of 64,000$/) } });
    expect(withOutput(JSON.stringify(big))).toMatchObject({ ok: true, tool: { outputSchemaProblem: expect.stringMatching(/^the output schema is 64,0\d\d characters/) } });
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(withOutput(cyclic)).toMatchObject({ ok: true, tool: { outputSchemaProblem: 'the output schema cannot be used: it is nested too deeply' } });
    for (const result of [withOutput(big), withOutput(cyclic)]) expect(result.ok && result.tool.outputSchema).toBeUndefined();
  });

  it('keeps the tool without one whose getter throws, and takes the bridge’s word where it could not copy one', () => {
    const throwing = Object.defineProperty({ name: 'cart_total', description: 'd' }, 'outputSchema', { get: () => { throw new Error('no'); } });
    expect(sanitizeTool(throwing, context)).toMatchObject({ ok: true, tool: { name: 'cart_total', outputSchemaProblem: 'the output schema cannot be read' } });
    const bridged = withOutput(undefined, { ...context, outputSchemaProblem: `the output schema cannot be used: ${'x'.repeat(400)}` });
    expect(bridged.ok && bridged.tool.outputSchemaProblem?.length).toBe(300);
  });
});

describe('sanitizeTool never throws', () => {
  it('survives getters that throw and proxies that refuse everything', () => {
    const throwing = Object.defineProperty({}, 'name', { get: () => { throw new Error('no'); } });
    expect(sanitizeTool(throwing, context)).toMatchObject({ ok: false, reason: 'the name is missing or not text' });
    const trap = () => { throw new Error('trap'); };
    const proxy = new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap, has: trap });
    expect(sanitizeTool(proxy, context).ok).toBe(false);
    const schemaProxy = { name: 'a', description: 'd', inputSchema: proxy };
    expect(refusal(schemaProxy)).toBe('the input schema cannot be used: it could not be read');
  });

  it('survives anything at all', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }), (value) => {
        const result = sanitizeTool(value, context);
        expect(typeof result.ok).toBe('boolean');
        const wrapped = sanitizeTool({ name: 'a', description: 'd', inputSchema: value, annotations: value, title: value }, context);
        expect(typeof wrapped.ok).toBe('boolean');
        // An output schema, whatever it is, never costs the tool.
        expect(sanitizeTool({ name: 'a', description: 'd', outputSchema: value }, context).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sanitizeTools: a frame’s whole list', () => {
  const tool = (name: string): OfferedTool => ({ tool: { name, description: `The ${name} tool.` }, source: 'native' });

  it('keeps the first of two tools with one name, and says why the second went', () => {
    const result = sanitizeTools([tool('a'), { tool: { name: 'a', description: 'again' }, source: 'polyfill' }, tool('b')], origin);
    expect(result.tools.map((entry) => `${entry.name}:${entry.source}`)).toEqual(['a:native', 'b:native']);
    expect(result.dropped).toEqual([{ name: 'a', reason: 'another tool of this page already has this name' }]);
  });

  it('takes at most 500 tools', () => {
    const offered = Array.from({ length: 510 }, (_, index) => tool(`t${index}`));
    const result = sanitizeTools(offered, origin);
    expect(result.tools).toHaveLength(500);
    expect(result.dropped).toHaveLength(10);
    expect(result.dropped[0]).toEqual({ name: 't500', reason: 'the page offers more than 500 tools' });
  });

  it('shortens a long name in the dropped list, so the report it goes in still passes the background', () => {
    const long = (index: number) => tool(`${'n'.repeat(100)}${index}`);
    const result = sanitizeTools(Array.from({ length: 501 }, (_, index) => long(index)), origin);
    expect(result.dropped).toHaveLength(1);
    expect(z.safeParse(toolsReportSchema(), { url: origin, ...result }).success).toBe(true);
  });

  it('caps the frame’s tools together at 4,000,000 characters', () => {
    const big = (name: string): OfferedTool => ({
      tool: { name, description: 'd', inputSchema: { type: 'object', description: 'z'.repeat(60_000) } },
      source: 'native',
    });
    const result = sanitizeTools(Array.from({ length: 70 }, (_, index) => big(`t${index}`)), origin);
    expect(result.tools.length).toBeLessThan(70);
    expect(result.dropped[0]?.reason).toBe("the page's tools together pass the limit of 4,000,000 characters");
  });

  it('keeps only the first reasons when a page offers thousands of bad tools', () => {
    const result = sanitizeTools(Array.from({ length: 2_000 }, () => ({ tool: { name: '!' }, source: 'polyfill' as const })), origin);
    expect(result.dropped).toHaveLength(501);
    expect(result.dropped[500]).toEqual({ name: '(more)', reason: '1500 more tools were dropped' });
  });
});

describe('the language of the page a tool comes from', () => {
  it('goes with each tool, as its document says it (`<html lang>`), and only where it is a language tag', () => {
    const tool = { name: 'add_to_cart', description: 'يضيف منتجًا إلى سلة التسوق.' };
    expect(sanitizeTools([{ tool, source: 'native' }], origin, undefined, 'ar').tools[0]?.lang).toBe('ar');
    expect(sanitizeTools([{ tool, source: 'native' }], origin).tools[0]).not.toHaveProperty('lang');

    const page = (lang: string) => ({ documentElement: { lang } }) as unknown as Document;
    expect(documentLanguage(page('he-IL'))).toBe('he-IL');
    expect(documentLanguage(page(' zh-Hant-TW '))).toBe('zh-Hant-TW');
    for (const odd of ['', 'ar"><b', 'x'.repeat(40), 'en_US']) expect(documentLanguage(page(odd)), odd).toBeUndefined();
  });
});
