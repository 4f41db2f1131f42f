import { describe, expect, it } from 'vitest';
import { hermesFormat } from '@webmcp-agents/local-agent';
import { toolRepliesForModel } from '../../lib/local-agent/tool-output-text';
import { estimateTokens } from '../../lib/local-agent/estimate-tokens';

describe('toolRepliesForModel', () => {
  it('cuts a table at the end of a row, and says how much is left', () => {
    const rows = Array.from({ length: 400 }, (_, index) => `| SKU-${String(index).padStart(5, '0')} | Enamel mug | ${index % 37} in stock | 12.50 USD |`);
    const table = ['| sku | name | stock | price |', '|---|---|---|---|', ...rows].join('\n');
    const { message, read } = toolRepliesForModel([{ name: 'list_stock', output: { text: table } }], hermesFormat, { characters: 100_000, roomTokens: 600 }, 'abc');
    const { content } = message;
    const shown = /<data-abc>\n([\s\S]*)\n… \(cut: (\d+) more characters not shown\)\n<\/data-abc>/.exec(content);
    expect(shown).not.toBeNull();
    const lines = shown![1]!.split('\n');
    expect(lines.at(-1)).toMatch(/^\| SKU-\d{5} \| Enamel mug \| \d+ in stock \| 12\.50 USD \|$/);
    expect(shown![1]!.length + Number(shown![2])).toBe(table.length);
    expect(read).toEqual([shown![1]!.length]);
  });

  it('counts what was left out from the result the page gave, where the extension cut it to carry it', () => {
    const carried = `${'y'.repeat(999_950)}\n… (cut: 1457840 of 2457790 characters not shown)`;
    const { message, read } = toolRepliesForModel([{ name: 'export', output: { text: carried, fullLength: 2_457_790 } }], hermesFormat, { characters: 4_000, roomTokens: 4_000 }, 'abc');
    expect(read).toEqual([4_000]);
    expect(message.content).toContain(`\n… (cut: ${2_457_790 - 4_000} more characters not shown)\n</data-abc>`);
  });

  it('starts a result cut to the context after its leading white space, so little room still shows words', () => {
    const page = `${'\n        '.repeat(40)}Mugs: blue, 350 ml, 12 USD. ${'More mugs in stock. '.repeat(200)}`;
    const { message, read } = toolRepliesForModel([{ name: 'read_page', output: { text: page } }], hermesFormat, { characters: 100_000, roomTokens: 0 }, 'abc');
    const shown = /<data-abc>\n([\s\S]*)\n… \(cut: (\d+) more characters not shown\)/.exec(message.content)!;
    expect(shown[1]).toMatch(/^Mugs: blue, 350 ml/);
    expect(read[0]! + Number(shown[2])).toBe(page.length);
  });

  it('keeps the starts of many results beyond the room only up to a cap, and notes for the rest', () => {
    const outputs = Array.from({ length: 20 }, (_, index) => ({ name: 'search', output: { text: `Result ${index}: ${'a blue mug of 350 ml, '.repeat(40)}` } }));
    const atNoRoom = toolRepliesForModel(outputs, hermesFormat, { characters: 100_000, roomTokens: 0 }, 'abc');
    const emptied = toolRepliesForModel(
      outputs.map((reply) => ({ ...reply, output: { text: '' } })),
      hermesFormat,
      { characters: 100_000, roomTokens: 0 },
      'abc',
    );
    const beyond = estimateTokens(atNoRoom.message.content) - estimateTokens(emptied.message.content);
    // The wrapping and the notes cost what they cost; the starts of the results no more than 400 tokens.
    expect(beyond).toBeLessThanOrEqual(400 + 20 * 20);
    expect(atNoRoom.read.filter((characters) => characters > 0).length).toBeGreaterThan(3);
    expect(atNoRoom.read.filter((characters) => characters === 0).length).toBeGreaterThan(3);
  });
});
