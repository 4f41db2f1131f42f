import { describe, expect, it } from 'vitest';
import { schemaProblems } from '@/lib/devtools/schema-problems';

describe('schemaProblems: what a schema refuses in a value, at every level', () => {
  it('reads lists as tuples where the schema says so, in either draft’s words', () => {
    const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: { type: 'boolean' } };
    expect(schemaProblems(pair, ['a', 1, true, false])).toEqual([]);
    expect(schemaProblems(pair, [1, 'a', 'yes'])).toEqual(['"[0]" must be string, got 1', '"[1]" must be number, got "a"', '"[2]" must be boolean, got "yes"']);
    const draft4 = { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } };
    expect(schemaProblems(draft4, ['a', 2, 2.5])).toEqual(['"[2]" must be integer, got 2.5']);
  });

  it('names no more problems than asked for', () => {
    const numbers = { type: 'array', items: { type: 'number' } };
    expect(schemaProblems(numbers, ['a', 'b', 'c', 'd'], 2)).toEqual(['"[0]" must be number, got "a"', '"[1]" must be number, got "b"']);
  });

  it('takes a page’s slips in its schema as constraining nothing, and never throws', () => {
    expect(schemaProblems({ type: 'string', pattern: '([unclosed' }, 'anything')).toEqual([]);
    expect(schemaProblems({ type: 'date' }, 12)).toEqual([]);
    expect(schemaProblems('not a schema', 12)).toEqual([]);
    expect(schemaProblems({ enum: [] }, 12)).toEqual([]);
    // A value nested far deeper than any result needs is looked into only so far.
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10_000; level++) deep = { next: deep };
    const chain: Record<string, unknown> = { type: 'object', properties: {} };
    (chain.properties as Record<string, unknown>).next = chain;
    expect(() => schemaProblems(chain, deep)).not.toThrow();
    // Unions at every level of a schema that refers to itself: tried within a bound, not without end.
    const tree: Record<string, unknown> = {};
    Object.assign(tree, { anyOf: [{ type: 'object', properties: { next: tree, other: tree } }, { type: 'object', properties: { next: tree } }] });
    let wide: unknown = 1;
    for (let level = 0; level < 40; level++) wide = { next: wide, other: wide };
    expect(schemaProblems(tree, wide)).toEqual([]);
  });

  it('says how a value misses a constant, an exact choice or a length', () => {
    expect(schemaProblems({ properties: { kind: { const: 'forecast' } } }, { kind: 'report' })).toEqual(['"kind" must be "forecast"']);
    expect(schemaProblems({ properties: { code: { type: 'string', maxLength: 2 } } }, { code: 'NOR' })).toEqual(['"code" must be at most 2 characters long, got 3']);
    expect(schemaProblems({ properties: { tags: { type: 'array', minItems: 1 } } }, { tags: [] })).toEqual(['"tags" must have at least 1 item, got 0']);
    expect(schemaProblems({ type: 'object', allOf: [{ required: ['id'] }, { properties: { id: { type: 'integer' } } }] }, {})).toEqual(['"id" is missing']);
  });
});
