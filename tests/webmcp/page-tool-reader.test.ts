import { describe, expect, it } from 'vitest';
import { PageToolReader, type FrameReport } from '@/lib/webmcp/page-tool-reader';
import type { PageToolSource } from '@/lib/webmcp/page-tool-source';

function source(tools: Array<{ name: string; description: string }>, kind: 'native' | 'polyfill'): PageToolSource {
  return {
    list: async () => ({ offered: tools.map((tool) => ({ tool: { ...tool, inputSchema: { type: 'object', properties: {} } }, source: kind })), refused: [] }),
    watch: () => () => {},
    execute: async (name) => `${kind} ran ${name}`,
  };
}

async function reportOf(sources: PageToolSource[]): Promise<FrameReport> {
  const reports: FrameReport[] = [];
  const reader = new PageToolReader({ sources, origin: 'https://notes.example', onReport: (report) => reports.push(report), debounceMs: 0 });
  await reader.reportNow();
  return reports.at(-1)!;
}

describe('PageToolReader: the same name from two sources', () => {
  it('takes a shim that hands its tools on to the browser for the one tool it is, with no clash to report', async () => {
    const tools = [{ name: 'add_note', description: 'Add a note.' }];
    const report = await reportOf([source(tools, 'native'), source(tools, 'polyfill')]);
    expect(report.tools.map((tool) => [tool.name, tool.source])).toEqual([['add_note', 'native']]);
    expect(report.dropped).toEqual([]);
  });

  it('still tells the author of one source offering a name twice, even said the same way', async () => {
    const twice = [{ name: 'add_note', description: 'Add a note.' }, { name: 'add_note', description: 'Add a note.' }];
    expect((await reportOf([source(twice, 'native')])).dropped).toEqual([{ name: 'add_note', reason: 'another tool of this page already has this name' }]);
  });

  it('still tells the author of two different tools under one name, keeping the first', async () => {
    const report = await reportOf([source([{ name: 'search', description: 'Search the notes.' }], 'native'), source([{ name: 'search', description: 'Search the web.' }], 'polyfill')]);
    expect(report.tools.map((tool) => [tool.name, tool.description])).toEqual([['search', 'Search the notes.']]);
    expect(report.dropped).toEqual([{ name: 'search', reason: 'another tool of this page already has this name' }]);
  });
});
