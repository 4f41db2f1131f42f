import { describe, expect, it } from 'vitest';
import { fullSchemaCheck, type FullSchemaCheck } from '@/lib/devtools/full-schema-check';

const schema = {
  type: 'object',
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    name: { type: 'string', minLength: 3, maxLength: 20 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    quantity: { type: 'integer', multipleOf: 5, exclusiveMinimum: 0 },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'time' },
    email: { type: 'string', format: 'email' },
    address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'], additionalProperties: false },
    pick: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  },
  required: ['code'],
  additionalProperties: false,
};

function checker(of: Record<string, unknown>): Exclude<FullSchemaCheck, { unreadable: string }>['check'] {
  const made = fullSchemaCheck(of);
  if ('unreadable' in made) throw new Error(made.unreadable);
  return made.check;
}

describe('the full check of a schema', () => {
  it('passes arguments that keep every rule, and takes a time as a time input gives it', () => {
    expect(checker(schema)({ code: 'ABC', name: 'Mugs', tags: ['a', 'b'], quantity: 10, day: '2026-12-05', at: '14:30', email: 'a@b.example', address: { zip: '1000' }, pick: 3 })).toBeNull();
  });

  it.each([
    [{ code: 'ab' }, '"code" must match ^[A-Z]{3}$.', 'code'],
    [{ code: 'ABC', name: 'x' }, '"name" must have at least 3 characters.', 'name'],
    [{ code: 'ABC', name: 'x'.repeat(21) }, '"name" must have at most 20 characters.', 'name'],
    [{ code: 'ABC', tags: ['a', 'b', 'c'] }, '"tags" must have at most 2 items.', 'tags'],
    [{ code: 'ABC', quantity: 7 }, '"quantity" must be a multiple of 5.', 'quantity'],
    [{ code: 'ABC', quantity: 0 }, '"quantity" must be more than 0.', 'quantity'],
    [{ code: 'ABC', day: 'tomorrow' }, '"day" must be a date such as 2026-12-05.', 'day'],
    [{ code: 'ABC', email: 'nobody' }, '"email" must be an email address.', 'email'],
    [{ code: 'ABC', address: {} }, 'Missing required argument "address.zip".', 'address'],
    [{ code: 'ABC', address: { zip: 1000 } }, '"address.zip" must be string.', 'address'],
    [{ code: 'ABC', address: { zip: '1000', city: 'Oslo' } }, '"address" has a key the schema does not allow: "city".', 'address'],
    [{ code: 'ABC', pick: true }, '"pick" matches none of the schema\'s alternatives (the nearest: "pick" must be string).', 'pick'],
    [{ code: 'ABC', colour: 'red' }, 'The arguments have a key the schema does not allow: "colour".', undefined],
  ])('says where %j breaks it, in the inspector\'s words', (args, message, field) => {
    expect(checker(schema)(args)).toMatchObject({ message, ...(field ? { field } : {}) });
  });

  it('reads only the arguments given: a property named "toString" or "constructor" left out is missing, not a breach', () => {
    const check = checker({ type: 'object', properties: { constructor: { type: 'integer' }, toString: { type: 'string' }, box: { type: 'object', properties: { valueOf: { type: 'string' } } } }, required: ['constructor'] });
    expect(check({ constructor: 1 })).toBeNull();
    expect(check({ constructor: 1, box: {} })).toBeNull();
    expect(check({})?.message).toMatch(/^Missing required argument "constructor"/);
    expect(check({})?.message).not.toContain('toString');
    expect(check({ constructor: 1, toString: 5 })?.message).toContain('"toString"');
  });

  it("names an item of a list by its place", () => {
    expect(checker({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', minLength: 2 } } } })({ tags: ['ok', 'x'] })).toEqual({
      message: '"tags[1]" must have at least 2 characters.',
      field: 'tags',
      fields: ['tags'],
      count: 1,
    });
  });

  it('reads references under definitions through the schema the agent reads', () => {
    const referenced = { type: 'object', definitions: { Code: { type: 'string', pattern: '^[0-9]+$' } }, properties: { code: { $ref: '#/definitions/Code' } } };
    expect(checker(referenced)({ code: 'abc' })).toMatchObject({ message: '"code" must match ^[0-9]+$.', field: 'code' });
  });

  it('takes what JSON Schema takes where zod alone would refuse it', () => {
    const lenient = checker({
      type: 'object',
      properties: {
        box: { enum: [{ w: 1 }, { w: 2 }] },
        version: { const: { api: 2 } },
        name: { type: 'string', pattern: '^\\p{L}+$' },
        glyph: { type: 'string', pattern: '^.$' },
        email: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri-reference' },
        when: { type: 'string', format: 'date-time' },
      },
    });
    expect(lenient({ box: { w: 2 }, version: { api: 2 }, name: 'Zoë', glyph: '😀', email: 'user@localhost', link: '/path', when: '2026-12-05t10:00:00z' })).toBeNull();
    // What breaks the rule still does, read as JSON Schema reads it.
    expect(lenient({ name: 'Zoë 2' })).toMatchObject({ message: '"name" must match ^\\p{L}+$.', field: 'name' });
    expect(lenient({ email: 'nobody' })).toMatchObject({ message: '"email" must be an email address.', field: 'email' });
  });

  it('says every broken rule up to three, and how many more, and where', () => {
    const all = checker(schema)({ code: 'ab', name: 'x', quantity: 7, day: 'tomorrow', email: 'nobody' });
    expect(all).toEqual({
      message: '"code" must match ^[A-Z]{3}$. "name" must have at least 3 characters. "quantity" must be a multiple of 5. And 2 more, in "day" and "email".',
      field: 'code',
      // Every argument named, those of the rules not said one by one too.
      fields: ['code', 'name', 'quantity', 'day', 'email'],
      count: 5,
    });
  });

  it("names what keeps a value from the alternative it comes nearest", () => {
    const pay = checker({
      type: 'object',
      properties: {
        pay: {
          oneOf: [
            { type: 'object', properties: { iban: { type: 'string', minLength: 15 } }, required: ['iban'], additionalProperties: false },
            { type: 'object', properties: { card: { type: 'string', pattern: '^[0-9]{16}$' } }, required: ['card'], additionalProperties: false },
          ],
        },
      },
    });
    expect(pay({ pay: { iban: 'DE12' } })?.message).toBe('"pay" matches none of the schema\'s alternatives (the nearest: "pay.iban" must have at least 15 characters).');
  });

  it('says a value that matches more than one alternative of a oneOf matches too many, not none', () => {
    const either = checker({ type: 'object', properties: { id: { oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] } } });
    expect(either({ id: 'ab' })).toMatchObject({ message: '"id" matches more than one of the schema\'s alternatives, where it must match exactly one.', field: 'id' });
  });

  it('reads alternatives written without a type, as their required names and properties say, and speaks of "the arguments" as many', () => {
    const byIdOrEmail = checker({ type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' } }, oneOf: [{ required: ['id'] }, { required: ['email'] }] });
    expect(byIdOrEmail({ id: 42 })).toBeNull();
    expect(byIdOrEmail({ email: 'ada@example.com' })).toBeNull();
    expect(byIdOrEmail({})?.message).toBe('The arguments match none of the schema\'s alternatives (the nearest: Missing required argument "id").');
    expect(byIdOrEmail({ id: 42, email: 'ada@example.com' })?.message).toBe("The arguments match more than one of the schema's alternatives, where they must match exactly one.");
    expect(byIdOrEmail({ id: 'x' })?.message).toContain('"id" must be');
    const either = checker({ type: 'object', anyOf: [{ properties: { sku: { type: 'string', minLength: 3 } }, required: ['sku'] }, { properties: { name: { type: 'string' } }, required: ['name'] }] });
    expect(either({ name: 'Mug' })).toBeNull();
    expect(either({ sku: 'AB' })?.message).toContain('"sku" must have at least 3 characters');
    // A required name nothing describes is any value, but there.
    const named = checker({ type: 'object', required: ['token'] });
    expect(named({ token: null })).toBeNull();
    expect(named({})?.message).toBe('Missing required argument "token".');
  });

  it('keeps to a few words and a moment on a hostile schema: a long list, a pattern that backtracks, a value nested past the stack', () => {
    const many = checker({ type: 'object', properties: { code: { enum: Array.from({ length: 50_000 }, (_, index) => `code-${index}`) } } });
    expect(many({ code: 'none' })).toMatchObject({ message: '"code" must be one of the 50,000 values the schema lists.', field: 'code' });
    // `^(a+)+$` doubles its time with each letter before a "!" (seconds at 27): left unchecked, as the agent leaves it.
    expect(checker({ type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } })({ word: `${'a'.repeat(20)}!` })).toBeNull();
    const tree = checker({ type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } } });
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 20_000; level += 1) deep = { child: deep };
    expect(tree({ node: deep })).toMatchObject({ message: expect.stringMatching(/^The page's whole schema could not be checked against these arguments \(.+\)\.$/) });
  });

  it('says why a schema it cannot read is not checked, rather than failing', () => {
    expect(fullSchemaCheck({ type: 'object', properties: { code: { type: 'string', pattern: '[' } } })).toEqual({ unreadable: expect.stringContaining('Invalid regular expression') });
    expect(fullSchemaCheck({ type: 'object', dependentRequired: { a: ['b'] } })).toEqual({ unreadable: expect.stringContaining('dependentRequired') });
  });
});
