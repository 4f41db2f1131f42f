import { describe, expect, it, vi } from 'vitest';
import { CheckedToolCache } from '@/lib/webmcp/checked-tool-cache';
import { readToolFields } from '@/lib/webmcp/read-tool-fields';
import { sanitizeToolFields, type ToolContext } from '@/lib/webmcp/sanitize-tool';
import { sanitizeTools } from '@/lib/webmcp/sanitize-tools';

const context: ToolContext = { origin: 'https://notes.example', source: 'native' };

/** Checks `tool` through the cache, counting the checks that really ran. */
function checker(limit = 10) {
  const cache = new CheckedToolCache(limit);
  const checks = vi.fn(sanitizeToolFields);
  return {
    check: (tool: unknown, toolContext = context) => {
      const raw = readToolFields(tool);
      return cache.check(raw, toolContext, () => checks(raw, toolContext));
    },
    checks,
  };
}

const note = () => ({ name: 'add_note', description: 'Add a note.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } });

describe('CheckedToolCache', () => {
  it('checks a tool read again with the same text once, though each reading hands over new objects', () => {
    const { check, checks } = checker();
    const first = check(note());
    expect(check(note())).toBe(first);
    expect(check({ ...note(), inputSchema: JSON.stringify(note().inputSchema) })).not.toBe(first);
    expect(checks).toHaveBeenCalledTimes(2);
  });

  it('checks again whatever changed: a word of the description, the schema changed in place, the frame or the source', () => {
    const { check, checks } = checker();
    const tool = note();
    check(tool);
    check({ ...tool, description: 'Add a short note.' });
    tool.inputSchema.properties.text.type = 'number';
    expect(check(tool)).toMatchObject({ ok: true, tool: { inputSchema: { properties: { text: { type: 'number' } } } } });
    check(tool, { ...context, origin: 'https://other.example' });
    check(tool, { ...context, source: 'polyfill' });
    expect(checks).toHaveBeenCalledTimes(5);
  });

  it('checks again when only the output schema changed, or how it was given, or the bridge’s word on it', () => {
    const { check, checks } = checker();
    const outputSchema = { type: 'object', properties: { id: { type: 'string' } } };
    const first = check({ ...note(), outputSchema });
    expect(check({ ...note(), outputSchema: structuredClone(outputSchema) })).toBe(first);
    outputSchema.properties.id.type = 'number';
    expect(check({ ...note(), outputSchema })).toMatchObject({ ok: true, tool: { outputSchema: { properties: { id: { type: 'number' } } } } });
    check({ ...note(), outputSchema: JSON.stringify(outputSchema) });
    expect(check(note())).toMatchObject({ ok: true, tool: { name: 'add_note' } });
    expect(check(note(), { ...context, outputSchemaProblem: 'the output schema cannot be used: it holds a function, which is not JSON' })).toMatchObject({
      ok: true,
      tool: { outputSchemaProblem: 'the output schema cannot be used: it holds a function, which is not JSON' },
    });
    expect(checks).toHaveBeenCalledTimes(5);
  });

  it('checks every time a tool it cannot write down: a schema with a cycle, annotations that are not plain', () => {
    const { check, checks } = checker();
    const schema: Record<string, unknown> = { type: 'object' };
    schema['self'] = schema;
    const looped = { ...note(), inputSchema: schema };
    expect(check(looped)).toMatchObject({ ok: false });
    expect(check(looped)).toMatchObject({ ok: false });
    const hinted = { ...note(), annotations: new Map([['readOnlyHint', true]]) };
    check(hinted);
    check(hinted);
    expect(checks).toHaveBeenCalledTimes(4);
  });

  it('keeps at most its limit, the tools seen least lately giving way', () => {
    const { check, checks } = checker(2);
    const tool = (name: string) => ({ ...note(), name });
    check(tool('a'));
    check(tool('b'));
    check(tool('a'));
    check(tool('c'));
    expect(checks).toHaveBeenCalledTimes(3);
    check(tool('a'));
    check(tool('b'));
    expect(checks).toHaveBeenCalledTimes(4);
  });

  it('checks every time what it could not tell from what the check refuses: a number that is not finite, a Date, a field past its limit', () => {
    const { check, checks } = checker();
    const withMaximum = (maximum: unknown) => ({ ...note(), inputSchema: { type: 'object', properties: { n: { type: 'number', maximum } } } });
    expect(check(withMaximum(Infinity))).toMatchObject({ ok: false });
    // Fixed by the page's author to what JSON would have written: taken, not the refusal kept.
    expect(check(withMaximum(null))).toMatchObject({ ok: true });
    expect(check({ ...note(), inputSchema: { type: 'object', default: new Date(0) } })).toMatchObject({ ok: false });
    expect(check({ ...note(), inputSchema: { type: 'object', default: new Date(0).toISOString() } })).toMatchObject({ ok: true });
    const long = { ...note(), description: 'x'.repeat(2_000_000) };
    check(long);
    check(long);
    expect(checks).toHaveBeenCalledTimes(6);
  });

  it('keeps a tool that takes no arguments (no schema at all) like any other', () => {
    const { check, checks } = checker();
    check({ name: 'refresh', description: 'Refresh the list.' });
    check({ name: 'refresh', description: 'Refresh the list.' });
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it('leaves sanitizeTools throwing nothing and costing no more, whatever a page hands over', () => {
    const cache = new CheckedToolCache(10);
    const refusing = new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } });
    const throwing = Object.defineProperty({}, 'readOnlyHint', { get: () => { throw new Error('no'); }, enumerable: true });
    const huge: unknown[] = [];
    huge.length = 20_000_000;
    for (const tool of [{ ...note(), annotations: refusing }, { ...note(), annotations: throwing }, { ...note(), inputSchema: { type: 'object', enum: huge } }]) {
      const started = performance.now();
      expect(() => sanitizeTools([{ tool, source: 'polyfill' }], context.origin, cache)).not.toThrow();
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
