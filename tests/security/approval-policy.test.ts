import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { approvalReason } from '@/lib/agent/approval-policy';

const tool = (annotations: ToolDescriptor['annotations']): ToolDescriptor => ({ name: 'tool', description: 'A tool.', inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) });
const asking = { confirmation: 'ask-unless-read-only' } as const;
const always = { confirmation: 'ask-always' } as const;

describe('when a call waits for the person', () => {
  it('a consequential tool always asks: on an allowed site, with every setting, even if it also claims to be read-only', () => {
    for (const annotations of [{ consequentialHint: true }, { consequentialHint: true, readOnlyHint: true }]) {
      for (const settings of [asking, always]) {
        for (const context of [{ siteAllowed: true }, { siteAllowed: false }, { siteAllowed: true, readUntrusted: true }]) {
          expect(approvalReason(tool(annotations), settings, context)).toBe('consequential');
        }
      }
    }
  });

  it('a tool whose page library hid whether it is consequential asks every time, on an allowed site too, unless it is read-only', () => {
    for (const context of [{ siteAllowed: true }, { siteAllowed: false }]) {
      expect(approvalReason(tool({ consequenceUnknown: true }), asking, context)).toBe('consequence-unknown');
    }
    expect(approvalReason(tool({ consequenceUnknown: true, readOnlyHint: true }), asking, { siteAllowed: false })).toBeNull();
  });

  it('a tool that may change the page asks unless the site is allowed, and again once the run has read untrusted text', () => {
    expect(approvalReason(tool(undefined), asking, { siteAllowed: false })).toBe('not-read-only');
    expect(approvalReason(tool(undefined), asking, { siteAllowed: true })).toBeNull();
    expect(approvalReason(tool({ readOnlyHint: false }), asking, { siteAllowed: true, readUntrusted: true })).toBe('read-untrusted');
    expect(approvalReason(tool(undefined), asking, { siteAllowed: false, readUntrusted: true })).toBe('read-untrusted');
  });

  it('a tool of another site framed in the page always asks, read-only too, whatever the settings: that site gets what the call sends', () => {
    for (const annotations of [undefined, { readOnlyHint: true }, { readOnlyHint: true, untrustedContentHint: true }]) {
      for (const settings of [asking, always]) {
        for (const context of [{ siteAllowed: true }, { siteAllowed: false }, { siteAllowed: true, readUntrusted: true }]) {
          expect(approvalReason(tool(annotations), settings, { ...context, otherSite: true })).toBe('other-site');
        }
      }
    }
    // Consequential says more: it asks every time wherever it comes from.
    expect(approvalReason(tool({ consequentialHint: true }), asking, { siteAllowed: true, otherSite: true })).toBe('consequential');
  });

  it('a read-only tool runs at once, unless the person asked to confirm every call', () => {
    expect(approvalReason(tool({ readOnlyHint: true }), asking, { siteAllowed: false, readUntrusted: true })).toBeNull();
    expect(approvalReason(tool({ readOnlyHint: true }), always, { siteAllowed: true })).toBe('confirm-all');
    expect(approvalReason(tool(undefined), always, { siteAllowed: true })).toBe('confirm-all');
  });
});
