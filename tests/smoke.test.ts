import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';

describe('project wiring', () => {
  it('resolves the spec import names', () => {
    const tool: ToolDescriptor = { name: 'x', description: 'y', inputSchema: {} };
    expect(tool.name).toBe('x');
  });
});
