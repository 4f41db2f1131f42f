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
        // zod writes each object closed: a branch takes no property it does not name.
        { type: 'object', properties: { kind: { type: 'string', const: 'pickup' }, store: { enum: ['north', 'south'] } }, required: ['kind', 'store'], additionalProperties: false },
        { type: 'object', properties: { kind: { type: 'string', const: 'ship' }, address: { $ref: '#/$defs/address' } }, required: ['kind', 'address'], additionalProperties: false },
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
        when: { type: 'string', description: '(format: date) The day' },
        days: { type: 'integer', description: '(default: 3)' },
        id: { type: ['string', 'integer'] },
        mode: { enum: ['fast'] },
        limit: { type: ['integer', 'null'] },
      },
      required: ['delivery'],
    });
  });

  it('says a number\'s steps: a whole step makes it an integer, any other step is said first in its description', () => {
    const steps = {
      type: 'object',
      properties: {
        qty: { type: 'number', multipleOf: 1, minimum: 1, description: 'How many' },
        grams: { type: 'number', multipleOf: 25, description: 'Cheese in grams' },
        size: { type: ['number', 'null'], multipleOf: 0.5 },
        odd: { type: 'number', multipleOf: -2 },
        both: { type: ['number', 'integer'], multipleOf: 2 },
        fine: { type: 'number', multipleOf: 1e-7 },
        halves: { type: ['integer', 'null'], multipleOf: 0.5 },
        threeHalves: { type: 'integer', multipleOf: 1.5 },
      },
    };
    expect(modelReads(steps).properties).toEqual({
      qty: { type: 'integer', minimum: 1, description: 'How many' },
      grams: { type: 'integer', description: '(a multiple of 25) Cheese in grams' },
      size: { type: ['number', 'null'], description: '(a multiple of 0.5)' },
      odd: { type: 'number' },
      both: { type: 'integer', description: '(a multiple of 2)' },
      fine: { type: 'number', description: '(a multiple of 0.0000001)' },
      // Every whole number is a multiple of 0.5: nothing to say.
      halves: { type: ['integer', 'null'] },
      threeHalves: { type: 'integer', description: '(a multiple of 1.5)' },
    });
    // A call of a whole number is refused before the page where it is not one.
    expect(validateArgs(plainSchema(steps) as Record<string, unknown>, { qty: 1.5 })).not.toBeNull();
  });

  it('checks a call against it without refusing what the page accepts', () => {
    const schema = plainSchema(checkout) as Record<string, unknown>;
    expect(validateArgs(schema, { delivery: { kind: 'pickup', store: 'north' }, note: null, limit: null, id: 7 })).toBeNull();
    expect(validateArgs(schema, { delivery: { kind: 'ship', address: { street: 'Main 1' } }, id: 'A-7', mode: 'fast' })).toBeNull();
    // What the page's schema refuses too, the model hears at once.
    expect(validateArgs(schema, { delivery: 'ship it to Main 1' })).toBe('"delivery" must be object, got "ship it to Main 1".');
    expect(validateArgs(schema, { delivery: {}, mode: 'slow' })).toBe('"mode" must be one of "fast".');
  });

  it('gives a union with a list among its branches the types of all, and its items, and leaves out a branch that matches nothing', () => {
    // pydantic's Union[List[str], str, None]; zod's optional inside a union, written {not: {}}.
    const search = {
      type: 'object',
      properties: {
        genes: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }, { type: 'null' }], default: null, title: 'Genes' },
        bins: { anyOf: [{ type: 'number' }, { not: {} }, { type: 'null' }], description: 'How many bars.' },
      },
    };
    expect(modelReads(search)).toEqual({
      type: 'object',
      properties: {
        genes: { type: ['array', 'string', 'null'], items: { type: 'string' }, description: '(default: null)' },
        bins: { type: ['number', 'null'], description: 'How many bars.' },
      },
    });
    // Two lists, one of them nullable by its type: neither's items may stand for both.
    const tags = { anyOf: [{ type: ['array', 'null'], items: { type: 'integer' } }, { type: 'array', items: { type: 'string' } }] };
    expect(modelReads({ type: 'object', properties: { tags } }).properties).toEqual({ tags: {} });
    const plain = plainSchema(search) as Record<string, unknown>;
    expect(validateArgs(plain, { genes: ['BRCA1'], bins: 10 })).toBeNull();
    expect(validateArgs(plain, { genes: 'BRCA1', bins: null })).toBeNull();
    expect(validateArgs(plain, { genes: 5 })).toBe('"genes" must be array or string or null, got 5.');
    expect(validateArgs(plain, { bins: 'ten' })).toBe('"bins" must be number or null, got "ten".');
  });

  it('trusts the values where no value listed has the type the schema gives, which no call could meet', () => {
    // Real tools: a boolean whose choices are words, and a list whose choices are its items'.
    const attractions = {
      type: 'object',
      properties: {
        free_entry: { type: 'boolean', enum: ['True', 'False', 'dontcare'] },
        metrics: { type: 'array', items: { type: 'string' }, enum: ['temperature', 'humidity'] },
        size: { type: 'string', enum: ['S', 'M', 5] },
        // OpenAPI's nullable adds null to both: the words still say no boolean.
        open_now: { type: 'boolean', enum: ['yes', 'no'], nullable: true },
      },
    };
    expect(modelReads(attractions)).toEqual({
      type: 'object',
      properties: {
        free_entry: { enum: ['True', 'False', 'dontcare'] },
        metrics: { type: 'array', items: { type: 'string', enum: ['temperature', 'humidity'] } },
        // One value of the type is enough: the schema can be met, and stays as written.
        size: { type: 'string', enum: ['S', 'M', 5] },
        open_now: { enum: ['yes', 'no', null] },
      },
    });
    const plain = plainSchema(attractions) as Record<string, unknown>;
    expect(validateArgs(plain, { free_entry: 'True', metrics: ['humidity'], open_now: 'yes' })).toBeNull();
    expect(validateArgs(plain, { open_now: null })).toBeNull();
    expect(validateArgs(plain, { free_entry: true })).toBe('"free_entry" must be one of "True", "False", "dontcare".');
  });

  it('takes what any branch takes where branches disagree, or where one says nothing of a property', () => {
    const lookup = plainSchema({
      type: 'object',
      anyOf: [
        { type: 'object', properties: { by: { const: 'id' }, value: { type: 'integer', maximum: 9 }, sort: { enum: ['price', 'name'] } }, required: ['by', 'value'] },
        { type: 'object', properties: { by: { const: 'name' }, value: { type: 'string' }, quantity: { type: 'integer', minimum: 10, maximum: 500 } }, required: ['by', 'value'] },
      ],
    }) as Record<string, unknown>;
    expect(compactSchema(lookup)).toEqual({
      type: 'object',
      properties: { by: { enum: ['id', 'name'] }, value: { type: ['integer', 'string'] }, sort: {}, quantity: {} },
      required: ['by', 'value'],
    });
    // Each of these matches one of the page's branches.
    expect(validateArgs(lookup, { by: 'name', value: 'Ada', sort: 'rating' })).toBeNull();
    expect(validateArgs(lookup, { by: 'id', value: 7, quantity: 3 })).toBeNull();
  });

  it('keeps null for a nullable list of values, and the properties beside a union or a reference', () => {
    expect(modelReads({ type: 'object', properties: { speed: { anyOf: [{ enum: ['express', 'standard'] }, { type: 'null' }] }, mode: { anyOf: [{ const: 'x' }, { type: 'null' }] } } })).toEqual({
      type: 'object',
      properties: { speed: { enum: ['express', 'standard', null] }, mode: { enum: ['x', null] } },
    });
    expect(
      modelReads({
        type: 'object',
        properties: { orderId: { type: 'string' }, shipping: { $ref: '#/$defs/address', properties: { note: { type: 'string' } } } },
        required: ['orderId'],
        oneOf: [
          { type: 'object', properties: { action: { const: 'cancel' } }, additionalProperties: false },
          { type: 'object', properties: { action: { const: 'refund' } }, additionalProperties: false },
        ],
        $defs: { address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        orderId: { type: 'string' },
        shipping: { type: 'object', properties: { note: { type: 'string' }, street: { type: 'string' } }, required: ['street'] },
        action: { enum: ['cancel', 'refund'] },
      },
      required: ['orderId'],
    });
  });

  it('keeps null for a nullable field whose other branch merges an allOf that brings both anyOf and oneOf (found by the property test)', () => {
    const schema = {
      type: 'object',
      properties: { filter: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/filter' }] } },
      required: ['filter'],
      $defs: {
        filter: {
          allOf: [
            { anyOf: [{ properties: { tag: { type: 'string' } } }, { properties: { tags: { type: 'array' } } }] },
            { oneOf: [{ type: 'object', properties: { all: { type: 'boolean' } } }, { type: 'object', properties: { any: { type: 'boolean' } } }] },
          ],
        },
      },
    };
    const read = modelReads(schema) as { properties: { filter: { type: unknown } } };
    expect(read.properties.filter.type).toEqual(['object', 'null']);
    expect(validateArgs(plainSchema(schema) as Record<string, unknown>, { filter: null })).toBeNull();
  });

  it('keeps what a reference review found lost: values that are not objects, and null', () => {
    // Branches that say no type take a word as well as an object.
    expect(validateArgs(plainSchema({ type: 'object', properties: { a: { anyOf: [{ properties: {} }, { properties: {} }] } } }) as Record<string, unknown>, { a: 'b' })).toBeNull();
    // A nullable type written out no further (it refers to itself) stays nullable.
    const list = plainSchema({ $ref: '#/$defs/N', $defs: { N: { type: 'object', nullable: true, properties: { next: { $ref: '#/$defs/N' } } } } });
    expect(validateArgs(list as Record<string, unknown>, { next: null })).toBeNull();
    // A nullable choice among choices keeps null.
    expect(validateArgs(plainSchema({ type: 'object', properties: { a: { anyOf: [{ anyOf: [{ const: 'x' }, { type: 'null' }] }] } } }) as Record<string, unknown>, { a: null })).toBeNull();
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
    expect(JSON.stringify(plain).length).toBeLessThan(20_000);
    // A long list of values reached through references that double at each level: written out no
    // more than about twice the schema's own size again.
    const values = Array.from({ length: 3_000 }, (_, index) => `v${index}`);
    const doubling = Object.fromEntries([
      ...Array.from({ length: 12 }, (_, level) => [`d${level}`, { type: 'object', properties: { a: { $ref: `#/$defs/d${level + 1}` }, b: { $ref: `#/$defs/d${level + 1}` } } }]),
      ['d12', { enum: values }],
    ]);
    const schema = { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs: doubling };
    expect(JSON.stringify(plainSchema(schema)).length).toBeLessThan(3 * JSON.stringify(schema).length);
    // A pointer that is not one (a broken escape) is left unread, not thrown.
    expect(modelReads({ type: 'object', properties: { a: { $ref: '#/%' }, b: { $ref: '#/$defs/%E0%A4%A' } } })).toEqual({ type: 'object', properties: { a: {}, b: {} } });
    expect(modelReads({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' }, b: { $ref: '#/$defs/missing' } } })).toEqual({
      type: 'object',
      properties: { a: {}, b: {} },
    });
  });

  it('reads a reference as a URI fragment: decoded whole, then split, then unescaped', () => {
    // RFC 6901, section 6: "%2F" is a "/" once the fragment is decoded, so it separates; only "~1" is a "/" in a name.
    const $defs = { a: { b: { type: 'integer' } }, 'a/b': { type: 'boolean' }, '100%': { type: 'string' }, '~x': { type: 'number' } };
    const schema = { type: 'object', properties: { split: { $ref: '#/$defs/a%2Fb' }, named: { $ref: '#/$defs/a~1b' }, percent: { $ref: '#/$defs/100%25' }, tilde: { $ref: '#/$defs/%7E0x' } }, $defs };
    expect(modelReads(schema)).toEqual({ type: 'object', properties: { split: { type: 'integer' }, named: { type: 'boolean' }, percent: { type: 'string' }, tilde: { type: 'number' } } });
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
