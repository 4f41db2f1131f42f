import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { rankTools } from '@webmcp-agents/local-agent';

describe('project wiring', () => {
  it('resolves the spec import names to the real modules', () => {
    const tool: ToolDescriptor = { name: 'add_to_cart', description: 'Add a product to the cart.', inputSchema: {} };
    expect(rankTools([tool], 'add to cart').map((shown) => shown.name)).toEqual(['add_to_cart']);
  });
});
