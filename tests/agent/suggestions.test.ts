import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { suggestRequests } from '../../lib/agent/suggestions';

const tool = (title: string): ToolDescriptor => ({ name: 'search_products', title, description: 'Searches the shop.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });

describe('the suggestion chips', () => {
  it('cut a long title at 60 characters, never in the middle of an emoji', () => {
    const title = `${'a'.repeat(59)}🛒 and the rest of a long title`;
    const [chip] = suggestRequests([tool(title)]);
    expect(chip).toBe('a'.repeat(59));
    expect(chip!.isWellFormed()).toBe(true);
    expect(suggestRequests([tool(`${'a'.repeat(58)}🛒 more`)])).toEqual([`${'a'.repeat(58)}🛒`]);
  });

  it('cut a long title before a flag or an emoji made of several, not inside it', () => {
    // 🇯🇵 is two letters of its own; 👨‍👩‍👧 three people joined into one family.
    expect(suggestRequests([tool(`${'a'.repeat(57)}🇯🇵 more`)])).toEqual(['a'.repeat(57)]);
    expect(suggestRequests([tool(`${'a'.repeat(55)}👨‍👩‍👧 more`)])).toEqual(['a'.repeat(55)]);
    // A title whose first letter carries more marks than a chip holds is cut between them, not dropped.
    expect(suggestRequests([tool(`Z${'\u0301'.repeat(80)}`)])[0]).toHaveLength(60);
  });

  it('offer no tool too large to be shown to the model at all: its request could not be done', () => {
    const countries = Array.from({ length: 3_000 }, (_, index) => `Country number ${index}`);
    const address: ToolDescriptor = {
      name: 'set_address',
      description: 'Sets the delivery address.',
      inputSchema: { type: 'object', properties: { country: { type: 'string', enum: countries } } },
      annotations: { readOnlyHint: true },
    };
    expect(suggestRequests([address, tool('Search the shop')])).toEqual(['Search the shop']);
  });
});

