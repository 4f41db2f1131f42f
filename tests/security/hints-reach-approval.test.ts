// Each hint that approval depends on must survive the content script's copy (sanitizeTool) and the
// background's check (TabToolRegistry), as a polyfilled tool's `consequenceUnknown` and a mail
// tool's `untrustedContentHint` do on a real page.
import { describe, expect, it } from 'vitest';
import type { TabEntry } from '@/lib/registry/frame-tools';
import { TabToolRegistry } from '@/lib/registry/tab-tool-registry';
import { sanitizeTool } from '@/lib/webmcp/sanitize-tool';
import { approvalReason } from '@/lib/agent/approval-policy';

const origin = 'https://shop.example';
const pageTools = [
  // Registered before the bridge could see it, through a polyfill that lists no consequentialHint.
  { name: 'place_order', description: 'Place the order.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, untrustedContentHint: false, consequenceUnknown: true } },
  { name: 'read_mail', description: 'The messages in the inbox.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, untrustedContentHint: true } },
];

async function throughTheExtension() {
  const reported = pageTools.map((tool) => {
    const result = sanitizeTool(tool, { origin, source: 'polyfill' });
    if (!result.ok) throw new Error(result.reason);
    return result.tool;
  });
  const registry = new TabToolRegistry({ load: async () => new Map<number, TabEntry>(), save: async () => {} });
  await registry.report({ tabId: 1, frameId: 0, url: `${origin}/`, origin }, { url: `${origin}/`, tools: reported, dropped: [] });
  return (await registry.get(1))!.tools;
}

describe('the hints approval depends on, from the page to the approval policy', () => {
  it('keeps consequenceUnknown: such a tool asks even on an allowed site', async () => {
    const placeOrder = (await throughTheExtension()).find((tool) => tool.name === 'place_order')!;
    expect(placeOrder.annotations?.consequenceUnknown).toBe(true);
    expect(approvalReason(placeOrder, { confirmation: 'ask-unless-read-only' }, { siteAllowed: true })).toBe('consequence-unknown');
  });

  it('keeps untrustedContentHint, which makes later calls ask on an allowed site', async () => {
    const readMail = (await throughTheExtension()).find((tool) => tool.name === 'read_mail')!;
    expect(readMail.annotations).toEqual({ readOnlyHint: true, untrustedContentHint: true });
  });
});
