import { describe, expect, it } from 'vitest';
import { compactSchema } from '@webmcp-agents/local-agent';

describe('compactSchema', () => {
  it('keeps type, properties, required, enum, minimum, maximum, items and description', () => {
    const schema = {
      type: 'object',
      description: 'An order.',
      properties: {
        size: { type: 'string', enum: ['S', 'M', 'L'] },
        qty: { type: 'integer', minimum: 1, maximum: 10 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['size'],
    };
    expect(compactSchema(schema)).toEqual(schema);
  });

  it('drops every other keyword', () => {
    expect(
      compactSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'order',
        title: 'Order',
        type: 'object',
        additionalProperties: false,
        properties: {
          email: { type: 'string', format: 'email', pattern: '.+@.+', default: 'a@b.c', examples: ['x'] },
          qty: { type: 'number', exclusiveMinimum: 0, multipleOf: 1, minimum: 1 },
        },
        required: ['email'],
        oneOf: [{ required: ['qty'] }],
        definitions: { unused: { type: 'string' } },
      }),
    ).toEqual({
      type: 'object',
      properties: { email: { type: 'string' }, qty: { type: 'number', minimum: 1 } },
      required: ['email'],
    });
  });

  it('cuts descriptions to 160 characters, at every level', () => {
    const long = `${'d'.repeat(159)}ef`;
    expect(long).toHaveLength(161);
    const compacted = compactSchema({
      description: long,
      properties: { note: { type: 'string', description: long } },
      items: { description: long },
    });
    expect(compacted).toEqual({
      description: long.slice(0, 160),
      properties: { note: { type: 'string', description: long.slice(0, 160) } },
      items: { description: long.slice(0, 160) },
    });
    const exact = 'e'.repeat(160);
    expect(compactSchema({ description: exact })).toEqual({ description: exact });
  });

  it('does not cut a character in half', () => {
    const emoji = `${'x'.repeat(159)}😀`;
    expect(compactSchema({ description: emoji })).toEqual({ description: 'x'.repeat(159) });
  });

  it('compacts recursively through nested properties and items', () => {
    expect(
      compactSchema({
        type: 'object',
        properties: {
          address: {
            type: 'object',
            additionalProperties: false,
            properties: { city: { type: 'string', minLength: 1 } },
            required: ['city'],
          },
          lines: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              title: 'Line',
              properties: { sku: { type: 'string', pattern: '^[A-Z]+$' } },
            },
          },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    });
  });

  it('keeps a property called like a keyword, or __proto__, as a plain property', () => {
    const schema = JSON.parse(
      '{"properties":{"type":{"type":"string"},"__proto__":{"type":"number","format":"x"}}}',
    );
    const compacted = compactSchema(schema);
    expect(Object.keys(compacted.properties as object)).toEqual(['type', '__proto__']);
    expect(Object.getPrototypeOf(compacted.properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(compacted.properties, '__proto__')?.value).toEqual({
      type: 'number',
    });
  });

  it('keeps the page’s keyword order', () => {
    const compacted = compactSchema({ required: [], description: 'd', type: 'object', properties: {} });
    expect(Object.keys(compacted)).toEqual(['required', 'description', 'type', 'properties']);
  });

  it('does not change the schema it is given', () => {
    const schema = { type: 'object', title: 'T', properties: { a: { type: 'string', format: 'uri' } } };
    const copy = structuredClone(schema);
    compactSchema(schema);
    expect(schema).toEqual(copy);
  });

  describe('junk', () => {
    it('turns a schema that is not an object into {}', () => {
      for (const junk of [null, undefined, 'string', 42, true, [], [{ type: 'string' }]]) {
        expect(compactSchema(junk as never)).toEqual({});
      }
    });

    it('drops kept keywords whose values have the wrong shape', () => {
      expect(
        compactSchema({
          type: 7,
          description: ['no'],
          properties: ['a', 'b'],
          required: 'a',
          enum: 'S',
          minimum: '1',
          maximum: Number.NaN,
          items: 'string',
        }),
      ).toEqual({});
    });

    it('keeps only the strings of a type list and of required', () => {
      expect(compactSchema({ type: ['string', 1, null, 'null'], required: ['a', 2, 'b'] })).toEqual({
        type: ['string', 'null'],
        required: ['a', 'b'],
      });
    });

    it('turns a property schema that is not an object into {}', () => {
      expect(compactSchema({ properties: { a: 'string', b: null, c: true } })).toEqual({
        properties: { a: {}, b: {}, c: {} },
      });
    });

    it('compacts each schema of a tuple-form items list', () => {
      expect(compactSchema({ items: [{ type: 'string', format: 'x' }, 3] })).toEqual({
        items: [{ type: 'string' }, {}],
      });
    });

    it('ends a cycle with {}', () => {
      const schema: Record<string, unknown> = { type: 'object', properties: {} };
      (schema.properties as Record<string, unknown>).self = schema;
      schema.items = schema;
      expect(compactSchema(schema)).toEqual({ type: 'object', properties: { self: {} }, items: {} });
    });

    it('keeps a subschema shared by two properties (not a cycle)', () => {
      const shared = { type: 'string' };
      expect(compactSchema({ properties: { a: shared, b: shared } })).toEqual({
        properties: { a: { type: 'string' }, b: { type: 'string' } },
      });
    });

    it('stops at 32 levels of nesting', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < 10_000; level++) schema = { type: 'object', properties: { next: schema } };
      let compacted = compactSchema(schema);
      let depth = 0;
      while ((compacted.properties as { next?: Record<string, unknown> } | undefined)?.next) {
        compacted = (compacted.properties as { next: Record<string, unknown> }).next;
        depth++;
      }
      expect(depth).toBe(33);
      expect(compacted).toEqual({});
    });
  });
});
