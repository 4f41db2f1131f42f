import { describe, expect, it } from 'vitest';
import { validateArgs } from '@webmcp-agents/local-agent';

const orderSchema = {
  type: 'object',
  properties: {
    slug: { type: 'string' },
    size: { type: 'string', enum: ['S', 'M', 'L'] },
    qty: { type: 'integer', minimum: 1, maximum: 10 },
    price: { type: 'number' },
    gift: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    lines: { type: 'array' },
    address: { type: 'object' },
    nothing: { type: 'null' },
  },
  required: ['slug', 'qty'],
};

describe('validateArgs', () => {
  it('accepts arguments that fit the schema', () => {
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 2 })).toBeNull();
    expect(
      validateArgs(orderSchema, {
        slug: 'mug',
        size: 'M',
        qty: 10,
        price: 9.5,
        gift: false,
        note: null,
        lines: [],
        address: { city: 'Oslo' },
        nothing: null,
      }),
    ).toBeNull();
  });

  it('wants the arguments to be an object', () => {
    expect(validateArgs(orderSchema, 'mug')).toBe('Arguments must be a JSON object, got "mug".');
    expect(validateArgs(orderSchema, null)).toBe('Arguments must be a JSON object, got null.');
    expect(validateArgs(orderSchema, [1, 2])).toBe('Arguments must be a JSON object, got [1,2].');
    expect(validateArgs(orderSchema, undefined)).toBe(
      'Arguments must be a JSON object, got undefined.',
    );
  });

  it('names the first missing required argument', () => {
    expect(validateArgs(orderSchema, { qty: 1 })).toBe('Missing required argument "slug".');
    expect(validateArgs(orderSchema, { slug: 'mug' })).toBe('Missing required argument "qty".');
    expect(validateArgs(orderSchema, {})).toBe('Missing required argument "slug".');
  });

  it('counts "" and undefined as missing, but not null, 0 or false', () => {
    expect(validateArgs(orderSchema, { slug: '', qty: 1 })).toBe('Missing required argument "slug".');
    expect(validateArgs(orderSchema, { slug: undefined, qty: 1 })).toBe(
      'Missing required argument "slug".',
    );
    expect(validateArgs({ required: ['a', 'b'] }, { a: 0, b: false })).toBeNull();
    expect(validateArgs({ required: ['a'] }, { a: null })).toBeNull();
  });

  it('checks each type, with the value as JSON after "got"', () => {
    const base = { slug: 'mug', qty: 1 };
    expect(validateArgs(orderSchema, { ...base, qty: 'two' })).toBe('"qty" must be integer, got "two".');
    expect(validateArgs(orderSchema, { ...base, qty: 2.5 })).toBe('"qty" must be integer, got 2.5.');
    expect(validateArgs(orderSchema, { ...base, qty: null })).toBe('"qty" must be integer, got null.');
    expect(validateArgs(orderSchema, { ...base, slug: 5 })).toBe('"slug" must be string, got 5.');
    expect(validateArgs(orderSchema, { ...base, price: '9.50' })).toBe(
      '"price" must be number, got "9.50".',
    );
    expect(validateArgs(orderSchema, { ...base, gift: 'yes' })).toBe('"gift" must be boolean, got "yes".');
    expect(validateArgs(orderSchema, { ...base, lines: {} })).toBe('"lines" must be array, got {}.');
    expect(validateArgs(orderSchema, { ...base, address: [] })).toBe('"address" must be object, got [].');
    expect(validateArgs(orderSchema, { ...base, address: null })).toBe(
      '"address" must be object, got null.',
    );
    expect(validateArgs(orderSchema, { ...base, nothing: 0 })).toBe('"nothing" must be null, got 0.');
  });

  it('takes a whole number for integer and any number for number', () => {
    const base = { slug: 'mug' };
    expect(validateArgs(orderSchema, { ...base, qty: 2 })).toBeNull();
    expect(validateArgs(orderSchema, { ...base, qty: 2.0, price: 2 })).toBeNull();
    expect(validateArgs(orderSchema, { ...base, qty: 1, price: 2.25 })).toBeNull();
  });

  it('reads a list of types as "any of these"', () => {
    const base = { slug: 'mug', qty: 1 };
    expect(validateArgs(orderSchema, { ...base, note: 'hi' })).toBeNull();
    expect(validateArgs(orderSchema, { ...base, note: null })).toBeNull();
    expect(validateArgs(orderSchema, { ...base, note: 3 })).toBe('"note" must be string or null, got 3.');
  });

  it('lists the allowed values of an enum', () => {
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 1, size: 'XL' })).toBe(
      '"size" must be one of "S", "M", "L".',
    );
    expect(validateArgs({ properties: { n: { enum: [1, 2, null] } } }, { n: 3 })).toBe(
      '"n" must be one of 1, 2, null.',
    );
    expect(validateArgs({ properties: { n: { enum: [{ a: 1 }] } } }, { n: { a: 1 } })).toBeNull();
    // JSON equality: the order of an object's keys does not count, an array's order does.
    expect(validateArgs({ properties: { n: { enum: [{ a: 1, b: [2, 3] }] } } }, { n: { b: [2, 3], a: 1 } })).toBeNull();
    expect(validateArgs({ properties: { n: { enum: [[1, 2]] } } }, { n: [2, 1] })).toBe('"n" must be one of [1,2].');
  });

  it('names at most twenty of a long enum\'s values, those most like what was written first, and how many there are', () => {
    const skus = Array.from({ length: 1_000 }, (_, index) => `SKU-${String(index).padStart(5, '0')}`);
    const message = validateArgs({ properties: { sku: { enum: skus } } }, { sku: 'sku-00042' })!;
    // Not 13,000 characters read back by the model, which has the whole list in its prompt already.
    expect(message).toBe(`"sku" must be one of "SKU-00042", ${skus.slice(0, 19).map((sku) => `"${sku}"`).join(', ')}, … (1,000 values in all).`);
    const words = validateArgs({ properties: { champion: { enum: ['Ahri', 'Akali', 'Annie', ...Array.from({ length: 30 }, (_, index) => `Hero ${index}`)] } } }, { champion: 'ahri' })!;
    expect(words.startsWith('"champion" must be one of "Ahri", "Akali",')).toBe(true);
    expect(words.endsWith(', … (33 values in all).')).toBe(true);
    expect(words.match(/", "/g)).toHaveLength(19);
    // Twenty or fewer are all listed, as before.
    const twenty = Array.from({ length: 20 }, (_, index) => index);
    expect(validateArgs({ properties: { n: { enum: twenty } } }, { n: 99 })).toBe(`"n" must be one of ${twenty.join(', ')}.`);
  });

  it('checks minimum and maximum', () => {
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 0 })).toBe('"qty" must be at least 1.');
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 11 })).toBe('"qty" must be at most 10.');
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 1 })).toBeNull();
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 10 })).toBeNull();
    expect(validateArgs({ properties: { t: { minimum: -0.5 } } }, { t: -1 })).toBe(
      '"t" must be at least -0.5.',
    );
  });

  it('checks in the documented order: object, required, then each property’s type, enum, minimum, maximum', () => {
    expect(validateArgs(orderSchema, { qty: 'two', size: 'XL' })).toBe('Missing required argument "slug".');
    const schema = {
      properties: {
        a: { type: 'integer', enum: [5, 15, 50], minimum: 10, maximum: 20 },
        b: { type: 'string' },
      },
    };
    expect(validateArgs(schema, { a: 'x', b: 1 })).toBe('"a" must be integer, got "x".');
    expect(validateArgs(schema, { a: 7, b: 1 })).toBe('"a" must be one of 5, 15, 50.');
    expect(validateArgs(schema, { a: 5, b: 1 })).toBe('"a" must be at least 10.');
    expect(validateArgs(schema, { a: 50, b: 1 })).toBe('"a" must be at most 20.');
    expect(validateArgs(schema, { a: 15, b: 1 })).toBe('"b" must be string, got 1.');
  });

  it('reports properties in the schema’s order, not the arguments’ order', () => {
    const schema = { properties: { first: { type: 'string' }, second: { type: 'string' } } };
    expect(validateArgs(schema, { second: 2, first: 1 })).toBe('"first" must be string, got 1.');
  });

  it('ignores unknown arguments and absent optional ones', () => {
    expect(validateArgs(orderSchema, { slug: 'mug', qty: 1, colour: 'red' })).toBeNull();
    expect(validateArgs({ type: 'object' }, { anything: [1, 2, 3] })).toBeNull();
  });

  it('skips checks it cannot read: unknown types, empty enums, non-numeric bounds, junk schemas', () => {
    expect(validateArgs({ properties: { d: { type: 'date' } } }, { d: 5 })).toBeNull();
    expect(validateArgs({ properties: { d: { type: ['date', 'string'] } } }, { d: 5 })).toBe(
      '"d" must be string, got 5.',
    );
    expect(validateArgs({ properties: { e: { enum: [] } } }, { e: 'x' })).toBeNull();
    expect(validateArgs({ properties: { n: { minimum: '3' } } }, { n: 1 })).toBeNull();
    expect(validateArgs({ properties: { n: { minimum: 3 } } }, { n: 'one' })).toBeNull();
    expect(validateArgs({ properties: { n: 'integer' } }, { n: 'x' })).toBeNull();
    expect(validateArgs({ required: 'slug', properties: [] }, {})).toBeNull();
    expect(validateArgs(null as never, {})).toBeNull();
    expect(validateArgs('schema' as never, 'args')).toBe('Arguments must be a JSON object, got "args".');
  });

  it('cuts a long value short in a message', () => {
    const message = validateArgs({ properties: { n: { type: 'number' } } }, { n: 'x'.repeat(500) });
    expect(message).toBe(`"n" must be number, got "${'x'.repeat(59)}….`);
  });

  it('names an argument whole, in its quotes, however long: the model must write it exactly', () => {
    const name = `shipping_address_line_${'x'.repeat(60)}`;
    const schema = { type: 'object', properties: { [name]: { type: 'integer' } }, required: [name] };
    expect(validateArgs(schema, {})).toBe(`Missing required argument "${name}".`);
    expect(validateArgs(schema, { [name]: 'two' })).toBe(`"${name}" must be integer, got "two".`);
    // Quotes inside a name are escaped, not counted against it.
    expect(validateArgs({ type: 'object', required: ['a"'.repeat(70)] }, {})).toBe(`Missing required argument ${JSON.stringify('a"'.repeat(70))}.`);
    // A page's absurd name is still cut, inside its quotes.
    const absurd = 'n'.repeat(500);
    expect(validateArgs({ type: 'object', required: [absurd] }, {})).toBe(`Missing required argument "${'n'.repeat(199)}…".`);
  });

  it('does not throw on values JSON cannot write', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(validateArgs({ properties: { c: { type: 'string' } } }, { c: cyclic })).toBe(
      '"c" must be string, got object.',
    );
    expect(validateArgs({ properties: { c: { type: 'string' } } }, { c: 10n })).toBe(
      '"c" must be string, got bigint.',
    );
    expect(validateArgs({}, 10n)).toBe('Arguments must be a JSON object, got bigint.');
  });
});

describe('validateArgs: numbers at the edges', () => {
  it('refuses a fraction past the maximum', () => {
    const schema = { type: 'object', properties: { amount: { type: 'number', maximum: 100 } } };
    expect(validateArgs(schema, { amount: 100 })).toBeNull();
    expect(validateArgs(schema, { amount: 100.5 })).toBe('"amount" must be at most 100.');
  });

  it('refuses Infinity (JSON 1e999) as a number, even without a maximum', () => {
    const schema = { type: 'object', properties: { amount: { type: 'number' } } };
    expect(validateArgs(schema, { amount: Number.POSITIVE_INFINITY })).toMatch(/must be number/);
  });
});
