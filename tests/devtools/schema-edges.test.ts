// Schemas at the edges of what the run form's starting value and the whole-schema check read.
import { describe, expect, it } from 'vitest';
import { jsonTemplate } from '@/lib/devtools/json-template';
import { fullSchemaCheck, type FullSchemaCheck } from '@/lib/devtools/full-schema-check';
import { schemaToForm } from '@/lib/devtools/schema-to-form';

function checker(of: Record<string, unknown>): Exclude<FullSchemaCheck, { unreadable: string }>['check'] {
  const made = fullSchemaCheck(of);
  if ('unreadable' in made) throw new Error(`unreadable: ${made.unreadable}`);
  return made.check;
}
const takes = (schema: Record<string, unknown>) => checker(schema)(jsonTemplate(schema) as Record<string, unknown>);

describe('the starting value of a JSON editor, at the edges', () => {
  it('allOf of two objects, each with its required names (zod .and()): both kept', () => {
    const schema = { allOf: [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
    ] };
    expect(jsonTemplate(schema)).toEqual({ a: '', b: '' });
  });
  it('required beside a oneOf whose branch has its own required: both kept', () => {
    const schema = { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'], oneOf: [{ properties: { x: { type: 'number' } }, required: ['x'] }] };
    expect(jsonTemplate(schema)).toEqual({ kind: '', x: 0 });
    expect(takes(schema)).toBeNull();
  });
  it('integer with minimum 0 and exclusiveMinimum 0 (int().nonnegative().positive())', () => {
    expect(jsonTemplate({ type: 'integer', minimum: 0, exclusiveMinimum: 0 })).toBe(1);
  });
  it('number with minimum 5 and exclusiveMinimum 7', () => {
    const value = jsonTemplate({ type: 'number', minimum: 5, exclusiveMinimum: 7 }) as number;
    expect(value).toBeGreaterThan(7);
  });
  it('required integer with multipleOf', () => {
    const schema = { type: 'object', properties: { qty: { type: 'integer', minimum: 1, multipleOf: 5 } }, required: ['qty'] };
    expect(takes(schema)).toBeNull();
  });
  it('a tree whose children are required: the template ends in [] not null', () => {
    const schema = { type: 'object', $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'] } }, properties: { root: { $ref: '#/$defs/node' } }, required: ['root'] };
    expect(JSON.stringify(jsonTemplate(schema))).not.toContain('null');
  });
  it('items: false gives an empty array', () => {
    expect(jsonTemplate({ type: 'array', items: false })).toEqual([]);
  });
  it('allOf of many self references ends (each is the node itself again: nothing to add)', () => {
    const selfReferences = Array.from({ length: 12 }, () => ({ $ref: '#' }));
    expect(jsonTemplate({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], allOf: selfReferences })).toEqual({ a: '' });
  });
  it('a schema whose required properties each refer back to the whole ends, and the run form is made', () => {
    const names = Array.from({ length: 12 }, (_, index) => `p${index}`);
    const schema = { type: 'object', properties: { name: { type: 'string' }, ...Object.fromEntries(names.map((name) => [name, { $ref: '#' }])) }, required: ['name', ...names] };
    expect(jsonTemplate(schema)).toMatchObject({ name: '' });
    expect(schemaToForm(schema).map((field) => field.name)).toEqual(['name', ...names]);
  });
  it('a page\'s chain of definitions that each take the next many times over ends, and still merges what they say', () => {
    // Eight levels, each an allOf of the next level twelve times: followed branch by branch, 12^8 of them.
    const $defs = Object.fromEntries(
      Array.from({ length: 8 }, (_, level) => [`d${level}`, { properties: { [`p${level}`]: { type: 'integer', minimum: level } }, required: [`p${level}`], allOf: Array.from({ length: 12 }, () => ({ $ref: `#/$defs/d${level + 1}` })) }]),
    );
    const template = jsonTemplate({ type: 'object', $defs, allOf: [{ $ref: '#/$defs/d0' }] }) as Record<string, number>;
    expect(template).toEqual({ p0: 0, p1: 1, p2: 2, p3: 3, p4: 4, p5: 5, p6: 6, p7: 7 });
  });
  it('a large schema of the page\'s own (no references) starts whole, with no value left null', () => {
    const strings = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`s${index}`, { type: 'string' }]));
    const objects = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`o${index}`, { type: 'object', properties: strings, required: Object.keys(strings) }]));
    const template = jsonTemplate({ type: 'object', properties: objects, required: Object.keys(objects) });
    expect(JSON.stringify(template)).not.toContain('null');
    expect((template as Record<string, Record<string, string>>).o39).toEqual(Object.fromEntries(Object.keys(strings).map((key) => [key, ''])));
  });
  it('a branch that points back to the node it is in adds what it says beside the reference', () => {
    const schema = {
      type: 'object',
      $defs: { choice: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, anyOf: [{ $ref: '#/$defs/choice', required: ['a'] }, { $ref: '#/$defs/choice', required: ['b'] }] } },
      properties: { pick: { $ref: '#/$defs/choice' } },
      required: ['pick'],
    };
    expect(jsonTemplate(schema)).toEqual({ pick: { a: '' } });
  });
});

describe('the whole-schema check, at the edges', () => {
  it('a tool with an argument named "required" (add_field(name, required))', () => {
    const check = checker({ type: 'object', properties: { name: { type: 'string' }, required: { type: 'boolean' } }, required: ['name'] });
    expect(check({ name: 'email', required: true })).toBeNull();
  });
  it('an argument named "properties" is not given a made-up "type" property', () => {
    const check = checker({ type: 'object', properties: { properties: { type: 'object' }, label: { type: 'string' } }, additionalProperties: false });
    expect(check({ properties: {}, label: 'x' })).toBeNull();
  });
  it('a property written without a type but with properties takes a string, as JSON Schema does', () => {
    const check = checker({ type: 'object', properties: { v: { properties: { x: { type: 'number' } } } } });
    expect(check({ v: 'text' })).toBeNull();
  });
  it('required naming something outside properties with additionalProperties false: no value matches', () => {
    const check = checker({ type: 'object', properties: { a: { type: 'string' } }, required: ['token'], additionalProperties: false });
    expect(check({ token: 'x' })).not.toBeNull();
  });
  it('the run form of a tool with an argument named "required" reads it as a checkbox', () => {
    expect(schemaToForm({ type: 'object', properties: { name: { type: 'string' }, required: { type: 'boolean' } } })).toMatchObject([{ name: 'name' }, { name: 'required', kind: 'boolean' }]);
  });
});
