import { validateArgs } from '@webmcp-agents/local-agent';
import { describe, expect, it } from 'vitest';
import { formValuesToArgs, initialFieldValues } from '@/lib/devtools/form-values-to-args';
import { jsonTemplate } from '@/lib/devtools/json-template';
import { schemaToForm } from '@/lib/devtools/schema-to-form';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to look for' },
    limit: { type: 'integer', minimum: 1, maximum: 20 },
    price: { type: 'number', maximum: 99.5 },
    inStock: { type: 'boolean' },
    size: { type: 'string', enum: ['S', 'M', 'L'] },
    rating: { enum: [1, 2, 3] },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer', minimum: 1000 } }, required: ['city'] },
    tags: { type: 'array', items: { type: 'string', enum: ['new', 'sale'] } },
    note: { type: ['string', 'null'] },
    anything: {},
  },
  required: ['query', 'size'],
};

describe('schemaToForm: the run form of a tool', () => {
  it('gives one field per property: text, number, integer, boolean, select, JSON', () => {
    expect(schemaToForm(schema)).toEqual([
      { name: 'query', required: true, description: 'Words to look for', kind: 'text' },
      { name: 'limit', required: false, kind: 'number', integer: true, minimum: 1, maximum: 20 },
      { name: 'price', required: false, kind: 'number', integer: false, maximum: 99.5 },
      { name: 'inStock', required: false, kind: 'boolean' },
      { name: 'size', required: true, kind: 'select', options: ['S', 'M', 'L'] },
      { name: 'rating', required: false, kind: 'select', options: [1, 2, 3] },
      { name: 'address', required: false, kind: 'json', template: '{\n  "city": "",\n  "zip": 1000\n}' },
      { name: 'tags', required: false, kind: 'json', template: '[\n  "new"\n]' },
      { name: 'note', required: false, kind: 'text' },
      { name: 'anything', required: false, kind: 'json', template: 'null' },
    ]);
  });

  it('gives no fields for a schema without properties, or one that is not an object schema', () => {
    expect(schemaToForm({ type: 'object' })).toEqual([]);
    expect(schemaToForm({ type: 'string' })).toEqual([]);
    expect(schemaToForm({ properties: [1, 2] })).toEqual([]);
  });
});

describe('formValuesToArgs: what the form sends', () => {
  const fields = schemaToForm(schema);

  it('reads numbers as numbers, the chosen option as its value, JSON as JSON, and leaves empty optional fields out', () => {
    const values = { ...initialFieldValues(fields), query: 'mug', limit: '3', price: '', size: '1', rating: '2', tags: '["sale"]', address: '', anything: '' };
    expect(formValuesToArgs(fields, values)).toEqual({
      ok: true,
      args: { query: 'mug', limit: 3, inStock: false, size: 'M', rating: 3, tags: ['sale'] },
    });
  });

  it('prefills the JSON editors from the schema', () => {
    expect(initialFieldValues(fields)).toMatchObject({ query: '', inStock: false, tags: '[\n  "new"\n]' });
  });

  it('says which field is not JSON', () => {
    expect(formValuesToArgs(fields, { ...initialFieldValues(fields), query: 'a', size: '0', tags: '[oops' })).toEqual({
      ok: false,
      message: '"tags" is not valid JSON.',
    });
  });

  it('hands validateArgs what it needs to give its own messages', () => {
    const check = (values: Record<string, string | boolean>) => {
      const read = formValuesToArgs(fields, { ...initialFieldValues(fields), address: '', tags: '', anything: '', ...values });
      return read.ok ? validateArgs(schema, read.args) : read.message;
    };
    expect(check({ size: '0' })).toBe('Missing required argument "query".');
    expect(check({ query: 'mug', size: '' })).toBe('Missing required argument "size".');
    expect(check({ query: 'mug', size: '0', limit: '0' })).toBe('"limit" must be at least 1.');
    expect(check({ query: 'mug', size: '0', limit: '2.5' })).toBe('"limit" must be integer, got 2.5.');
    expect(check({ query: 'mug', size: '0', limit: 'two' })).toBe('"limit" must be integer, got "two".');
    expect(check({ query: 'mug', size: '0', price: '120' })).toBe('"price" must be at most 99.5.');
    expect(check({ query: 'mug', size: '2' })).toBeNull();
  });
});

describe('jsonTemplate', () => {
  it('shapes a value like the schema, and stops at a sane depth', () => {
    expect(jsonTemplate({ type: 'object', properties: { a: { type: 'boolean' }, b: { const: 'x' }, c: { default: 5 } } })).toEqual({ a: false, b: 'x', c: 5 });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 20; level += 1) deep = { type: 'array', items: deep };
    expect(JSON.stringify(jsonTemplate(deep))).toBe('[[[[[[[null]]]]]]]');
  });
});
