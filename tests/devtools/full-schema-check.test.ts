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
    [{ code: 'ABC', pick: true }, '"pick" matches none of the schema\'s alternatives.', 'pick'],
    [{ code: 'ABC', colour: 'red' }, 'The arguments have a key the schema does not allow: "colour".', undefined],
  ])('says where %j breaks it, in the inspector\'s words', (args, message, field) => {
    expect(checker(schema)(args)).toEqual({ message, ...(field ? { field } : {}) });
  });

  it("names an item of a list by its place", () => {
    expect(checker({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', minLength: 2 } } } })({ tags: ['ok', 'x'] })).toEqual({
      message: '"tags[1]" must have at least 2 characters.',
      field: 'tags',
    });
  });

  it('reads references under definitions through the schema the agent reads', () => {
    const referenced = { type: 'object', definitions: { Code: { type: 'string', pattern: '^[0-9]+$' } }, properties: { code: { $ref: '#/definitions/Code' } } };
    expect(checker(referenced)({ code: 'abc' })).toEqual({ message: '"code" must match ^[0-9]+$.', field: 'code' });
  });

  it('says why a schema it cannot read is not checked, rather than failing', () => {
    expect(fullSchemaCheck({ type: 'object', properties: { code: { type: 'string', pattern: '[' } } })).toEqual({ unreadable: expect.stringContaining('Invalid regular expression') });
    expect(fullSchemaCheck({ type: 'object', dependentRequired: { a: ['b'] } })).toEqual({ unreadable: expect.stringContaining('dependentRequired') });
  });
});
