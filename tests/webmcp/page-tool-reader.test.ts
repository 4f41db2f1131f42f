import { describe, expect, it } from 'vitest';
import { PageToolReader, type FrameReport } from '@/lib/webmcp/page-tool-reader';
import type { PageToolSource } from '@/lib/webmcp/page-tool-source';

function source(tools: Array<{ name: string; description: string }>, kind: 'native' | 'polyfill' | 'declarative'): PageToolSource {
  return {
    ...(kind === 'declarative' ? { yieldsToEarlier: true } : {}),
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

describe('PageToolReader: a polyfill that reads the page\'s <form toolname> itself', () => {
  const form = [{ name: 'book_table', description: 'Book a table.' }];

  it('takes its form for the form the extension reads, which runs it', async () => {
    const forms = source(form, 'declarative');
    const reports: FrameReport[] = [];
    const reader = new PageToolReader({ sources: [source(form, 'polyfill'), forms], origin: 'https://bistro.example', onReport: (report) => reports.push(report), debounceMs: 0 });
    await reader.reportNow();
    expect(reports.at(-1)!.tools.map((tool) => [tool.name, tool.source])).toEqual([['book_table', 'declarative']]);
    expect(reports.at(-1)!.dropped).toEqual([]);
    expect(await reader.sourceOf('book_table')).toBe(forms);
  });

  it('keeps a script\'s tool that says otherwise than the form of its name, as the browser does', async () => {
    const report = await reportOf([source([{ name: 'book_table', description: 'Book through our API.' }], 'polyfill'), source(form, 'declarative')]);
    expect(report.tools.map((tool) => [tool.name, tool.source, tool.description])).toEqual([['book_table', 'polyfill', 'Book through our API.']]);
  });

  it('leaves the browser\'s own listing of a form as it is', async () => {
    const report = await reportOf([source(form, 'native'), source(form, 'declarative')]);
    expect(report.tools.map((tool) => [tool.name, tool.source])).toEqual([['book_table', 'native']]);
  });
});

describe('PageToolReader on a page whose tools keep changing', () => {
  /**
   * A source that hands over fresh objects at each reading, as the browser's `getTools()` does.
   * Each reading works `readingMs` on the main thread (hundreds of tools), the first `firstMs`
   * (nothing checked yet), and then waits `waitMs` for a promise the browser resolves later.
   */
  function changingSource(tools: () => Array<{ name: string; description: string }>, readingMs = 0, { firstMs = readingMs, waitMs = 0 } = {}) {
    let changed: () => void = () => {};
    let readings = 0;
    const page: PageToolSource = {
      list: async () => {
        const until = performance.now() + (readings++ === 0 ? firstMs : readingMs);
        while (performance.now() < until) {
          // The reading's own work on the page's main thread.
        }
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        return { offered: tools().map((tool) => ({ tool: { ...tool, inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, source: 'native' as const })), refused: [] };
      },
      watch: (listener) => {
        changed = listener;
        return () => {};
      },
      execute: async () => 'ran',
    };
    return { page, change: () => changed() };
  }

  it('keeps a tool that did not change as it was checked, and says nothing when nothing changed', async () => {
    let version = 0;
    const { page, change } = changingSource(() => [
      { name: 'add_note', description: 'Add a note.' },
      { name: 'render_count', description: `Rendered ${version} times.` },
    ]);
    const reports: FrameReport[] = [];
    const reader = new PageToolReader({ sources: [page], origin: 'https://notes.example', onReport: (report) => reports.push(report), debounceMs: 5 });
    await reader.reportNow();
    version += 1;
    change();
    await expect.poll(() => reports.length).toBe(2);
    // The unchanged tool is the one checked before; the changed one is checked again.
    expect(reports[1]!.tools[0]).toBe(reports[0]!.tools[0]);
    expect(reports[1]!.tools[1]!.description).toBe('Rendered 1 times.');
    // Read again with nothing changed: no report.
    change();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports).toHaveLength(2);
  });

  it('reads the page no more once stopped (its extension went away), and reports nothing of a reading under way', async () => {
    let readings = 0;
    let release: () => void = () => {};
    let changed: () => void = () => {};
    const page: PageToolSource = {
      list: async () => {
        readings += 1;
        if (readings > 1) await new Promise<void>((resolve) => (release = resolve));
        return { offered: [{ tool: { name: 'render_count', description: `Rendered ${readings} times.`, inputSchema: { type: 'object', properties: {} } }, source: 'native' }], refused: [] };
      },
      watch: (listener) => {
        changed = listener;
        return () => {};
      },
      execute: async () => 'ran',
    };
    const reports: FrameReport[] = [];
    const reader = new PageToolReader({ sources: [page], origin: 'https://notes.example', onReport: (report) => reports.push(report), debounceMs: 5 });
    await reader.reportNow();
    changed();
    await expect.poll(() => readings).toBe(2);
    reader.stop();
    release();
    changed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports.map((report) => report.tools[0]!.description)).toEqual(['Rendered 1 times.']);
    expect(readings).toBe(2);
  });

  it('goes on reading after a reading failed: one failure does not stop the frame\'s reports for good', async () => {
    let version = 0;
    const { page, change } = changingSource(() => [{ name: 'render_count', description: `Rendered ${version} times.` }]);
    const reports: FrameReport[] = [];
    const reader = new PageToolReader({
      sources: [page],
      origin: 'https://notes.example',
      onReport: (report) => {
        if (reports.push(report) === 1) throw new Error('The first report could not be sent.');
      },
      debounceMs: 5,
    });
    await expect(reader.reportNow()).rejects.toThrow('The first report could not be sent.');
    version += 1;
    change();
    await expect.poll(() => reports.length).toBe(2);
    expect(reports[1]!.tools[0]!.description).toBe('Rendered 1 times.');
    reader.stop();
  });

  it("leaves the page most of its time when reading its tools takes long: the next reading waits four times as long", async () => {
    let version = 0;
    const { page, change } = changingSource(() => [{ name: 'render_count', description: `Rendered ${version} times.` }], 40);
    const readAt: number[] = [];
    const reader = new PageToolReader({
      sources: [page],
      origin: 'https://notes.example',
      onReport: () => readAt.push(performance.now()),
      debounceMs: 10,
    });
    await reader.reportNow();
    // A framework that registers the tool again at every render.
    const renders = setInterval(() => {
      version += 1;
      change();
    }, 5);
    try {
      await expect.poll(() => readAt.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    } finally {
      clearInterval(renders);
    }
    const gaps = readAt.slice(1).map((at, index) => at - readAt[index]!);
    // Each reading takes 40 ms and the next starts no sooner than 160 ms after it ended.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(195);
  });

  it('reads a change after a quiet spell (a tool the agent just called) within the quiet period, however long the last reading waited or first took', async () => {
    // The agent waits 300 ms after a call for the page's tools to change.
    for (const reading of [{ firstMs: 0, waitMs: 120 }, { firstMs: 80, waitMs: 0 }]) {
      let version = 0;
      const { page, change } = changingSource(() => [{ name: version === 0 ? 'open_cart' : 'checkout', description: 'A tool.' }], 1, reading);
      const reports: number[] = [];
      new PageToolReader({ sources: [page], origin: 'https://shop.example', onReport: () => reports.push(performance.now()), debounceMs: 20 });
      await expect.poll(() => reports.length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      version = 1;
      const changedAt = performance.now();
      change();
      await expect.poll(() => reports.length).toBe(2);
      // Four times the last reading would be 480 ms after one that waited, 320 ms after the first.
      expect(reports[1]! - changedAt).toBeLessThan(250);
    }
  });
});
