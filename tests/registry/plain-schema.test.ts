import { compactSchema, validateArgs } from '@webmcp-agents/local-agent';
import { describe, expect, it } from 'vitest';
import { plainSchema } from '@/lib/registry/plain-schema';
import { toolsForAgent } from '@/lib/registry/tools-for-agent';
import type { PageTool } from '@/lib/registry/types';

/** What the model reads of a schema once the extension has said it plainly. */
const modelReads = (schema: Record<string, unknown>) => compactSchema(plainSchema(schema) as Record<string, unknown>);

/** A delivery that is either a pickup at a store or shipping to an address, as zod writes it. */
const checkout = {
  type: 'object',
  properties: {
    delivery: {
      anyOf: [
        { type: 'object', properties: { kind: { type: 'string', const: 'pickup' }, store: { enum: ['north', 'south'] } }, required: ['kind', 'store'] },
        { type: 'object', properties: { kind: { type: 'string', const: 'ship' }, address: { $ref: '#/$defs/address' } }, required: ['kind', 'address'] },
      ],
    },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'For the driver' },
    when: { type: 'string', format: 'date', description: 'The day' },
    days: { type: 'integer', default: 3 },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    mode: { const: 'fast' },
    limit: { type: 'integer', nullable: true },
  },
  required: ['delivery'],
  $defs: { address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] } },
};

describe('plainSchema: a generated schema in the words the prompt keeps', () => {
  it('gives the model the shape of unions, references, nullable fields, constants, formats and defaults', () => {
    expect(modelReads(checkout)).toEqual({
      type: 'object',
      properties: {
        delivery: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['pickup', 'ship'] },
            store: { enum: ['north', 'south'] },
            address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] },
          },
          required: ['kind'],
        },
        note: { type: ['string', 'null'], description: 'For the driver' },
        when: { type: 'string', description: 'The day (format: date)' },
        days: { type: 'integer', description: '(default: 3)' },
        id: { type: ['string', 'integer'] },
        mode: { enum: ['fast'] },
        limit: { type: ['integer', 'null'] },
      },
      required: ['delivery'],
    });
  });

  it('checks a call against it without refusing what the page accepts', () => {
    const schema = plainSchema(checkout) as Record<string, unknown>;
    expect(validateArgs(schema, { delivery: { kind: 'pickup', store: 'north' }, note: null, limit: null, id: 7 })).toBeNull();
    expect(validateArgs(schema, { delivery: { kind: 'ship', address: { street: 'Main 1' } }, id: 'A-7', mode: 'fast' })).toBeNull();
    // What the page's schema refuses too, the model hears at once.
    expect(validateArgs(schema, { delivery: 'ship it to Main 1' })).toBe('"delivery" must be object, got "ship it to Main 1".');
    expect(validateArgs(schema, { delivery: {}, mode: 'slow' })).toBe('"mode" must be one of "fast".');
  });

  it('merges allOf, and says a schema that refers to itself as the kind of value it is', () => {
    expect(
      modelReads({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { $ref: '#/definitions/tree' } }, required: ['b'] },
        ],
        definitions: { tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/tree' } } } } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { type: 'object' } } } },
      },
      required: ['a', 'b'],
    });
  });

  it('stays small where a few references would multiply the schema, and leaves unknown references empty', () => {
    // Each level refers to the next twice: written out, 2^30 nodes.
    const defs = Object.fromEntries(
      Array.from({ length: 30 }, (_, level) => [`l${level}`, { type: 'object', properties: { left: { $ref: `#/$defs/l${level + 1}` }, right: { $ref: `#/$defs/l${level + 1}` } } }]),
    );
    const plain = plainSchema({ type: 'object', properties: { root: { $ref: '#/$defs/l0' } }, $defs: defs });
    expect(JSON.stringify(plain).length).toBeLessThan(1_000_000);
    expect(modelReads({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' }, b: { $ref: '#/$defs/missing' } } })).toEqual({
      type: 'object',
      properties: { a: {}, b: {} },
    });
  });

  it('leaves a schema that needs nothing as the same object, and a property named "__proto__" a property', () => {
    const simple = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
    expect(plainSchema(simple)).toBe(simple);
    const odd = JSON.parse('{"allOf":[{"properties":{"__proto__":{"type":"string"}}},{"properties":{"x":{"type":"integer"}}}]}');
    const plain = plainSchema(odd) as { properties: Record<string, unknown> };
    expect(Object.keys(plain.properties)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(plain.properties)).toBe(Object.prototype);
  });

  it('keeps titled choices for their words, so the model reads both the values and what they mean', () => {
    const tool: PageTool = {
      name: 'book_slot',
      description: 'Book a delivery slot.',
      inputSchema: {
        type: 'object',
        properties: { slot: { $ref: '#/$defs/slot' } },
        $defs: { slot: { anyOf: [{ const: 's1', title: 'Friday at six' }, { const: 's2', title: 'Saturday at nine' }] } },
      },
      origin: 'https://shop.example',
      frameId: 0,
      source: 'native',
    };
    const [forAgent] = toolsForAgent({ tabId: 1, origin: tool.origin, url: `${tool.origin}/`, tools: [tool], dropped: [], updatedAt: 0 }).tools;
    expect(compactSchema(forAgent!.inputSchema)).toEqual({
      type: 'object',
      properties: { slot: { enum: ['s1', 's2'], description: '(s1 = Friday at six, s2 = Saturday at nine)' } },
    });
  });
});
