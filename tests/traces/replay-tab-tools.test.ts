import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { guardSite } from '@/lib/traces/guard-site';
import { replayTabTools } from '@/lib/traces/replay-tab-tools';
import type { TraceServiceBackground } from '@/lib/traces/trace-service';

const site = 'https://shop.example';
const broken: ToolDescriptor = { name: 'broken_tool', description: 'Fails.', inputSchema: { type: 'object', properties: {} } };

/** A tab whose one tool throws, as Chrome reports it: its words for developers, the cause left in the page's console. */
function pageThatThrows(): TraceServiceBackground {
  return {
    store: () => Promise.reject(new Error('unused')),
    getTabTools: async () => ({ url: `${site}/`, origin: site, tools: [broken] }),
    executeTabTool: async () => ({ text: 'Tool was executed but the invocation failed. For security reasons the exception cannot be surfaced, please check the developer console for details.', isError: true }),
    listTabIds: async () => [7],
    isPrivateTab: async () => false,
  };
}

describe("a replay's calls", () => {
  it("read a tool that threw in the words a live run recorded, not Chrome's words for developers, so an unchanged page shows no difference", async () => {
    const background = pageThatThrows();
    const tools = replayTabTools(background, 7, site, guardSite(background, 7, site, new AbortController().signal), { timeoutMs: 5_000, onTimeout: () => {} });
    const output = await tools.executeTool({ name: 'broken_tool', arguments: {} }, { tool: broken, signal: new AbortController().signal, callId: '1.1' });
    expect(output).toEqual({ text: `The tool "broken_tool" failed in the page; no reason came with the failure (the page's console may say why).`, isError: true });
  });
});
