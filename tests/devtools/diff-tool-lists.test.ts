import { describe, expect, it } from 'vitest';
import { diffToolLists } from '@/lib/devtools/diff-tool-lists';
import { formatToolText } from '@/lib/text/format-tool-text';
import { toolListJson } from '@/lib/devtools/tool-list-json';
import type { PageTool } from '@/lib/registry/types';

const tool = (name: string, overrides: Partial<PageTool> = {}): PageTool => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object' },
  origin: 'https://shop.example',
  frameId: 0,
  source: 'native',
  ...overrides,
});

describe('diffToolLists: the change log', () => {
  it('tells tools added, removed and changed (and which fields changed)', () => {
    const before = [tool('a'), tool('b'), tool('c')];
    const after = [tool('a'), tool('b', { description: 'New words.', annotations: { readOnlyHint: true } }), tool('d')];
    expect(diffToolLists(before, after, 5)).toEqual([
      { kind: 'changed', name: 'b', frameId: 0, at: 5, fields: ['description', 'annotations'] },
      { kind: 'added', name: 'd', frameId: 0, at: 5 },
      { kind: 'removed', name: 'c', frameId: 0, at: 5 },
    ]);
  });

  it('tells a tool whose output schema changed', () => {
    const outputSchema = { type: 'object', properties: { total: { type: 'number' } } };
    expect(diffToolLists([tool('a')], [tool('a', { outputSchema })], 2)).toEqual([{ kind: 'changed', name: 'a', frameId: 0, at: 2, fields: ['outputSchema'] }]);
  });

  it('keeps a tool of one name in two frames apart', () => {
    expect(diffToolLists([tool('a')], [tool('a'), tool('a', { frameId: 3 })], 1)).toEqual([{ kind: 'added', name: 'a', frameId: 3, at: 1 }]);
  });
});

describe('formatToolText and toolListJson', () => {
  it('pretty-prints JSON results and leaves other text alone', () => {
    expect(formatToolText('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(formatToolText('Added 2 mugs.')).toBe('Added 2 mugs.');
    expect(formatToolText('{not json')).toBe('{not json');
  });

  it('copies the tools with their origin, frame and source', () => {
    const json = toolListJson({ tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', tools: [tool('a', { title: 'A' })], dropped: [], updatedAt: 0 });
    expect(JSON.parse(json)).toEqual([
      { name: 'a', title: 'A', description: 'The a tool.', inputSchema: { type: 'object' }, origin: 'https://shop.example', frameId: 0, source: 'native' },
    ]);
  });

  it('copies a tool\'s output schema beside its input schema, where it has one', () => {
    const outputSchema = { type: 'object', properties: { total: { type: 'number' } } };
    const tools = [tool('a', { outputSchema })];
    const json = toolListJson({ tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', tools, dropped: [], updatedAt: 0 });
    expect(JSON.parse(json)).toEqual([
      { name: 'a', description: 'The a tool.', inputSchema: { type: 'object' }, outputSchema, origin: 'https://shop.example', frameId: 0, source: 'native' },
    ]);
    expect(Object.keys(JSON.parse(json)[0])).toEqual(['name', 'description', 'inputSchema', 'outputSchema', 'origin', 'frameId', 'source']);
  });

  it('writes a character that draws nothing as its escape, so the copy shows what it holds and parses to the same tools', () => {
    const description = 'Deletes \u202Etsil eht\u202C and\u200B nothing else; keeps 👩\u200D💻 and 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}.';
    const tools = [tool('a', { description, inputSchema: { type: 'object', properties: { ['x\u{E0041}']: { type: 'string' } } } })];
    const json = toolListJson({ tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', tools, dropped: [], updatedAt: 0 });
    expect(json).toContain('Deletes \\u202etsil eht\\u202c and\\u200b nothing else; keeps 👩\u200D💻 and 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}.');
    expect(json).toContain('"x\\udb40\\udc41"');
    expect(JSON.parse(json)[0].description).toBe(description);
    expect(Object.keys(JSON.parse(json)[0].inputSchema.properties)).toEqual(['x\u{E0041}']);
  });
});
