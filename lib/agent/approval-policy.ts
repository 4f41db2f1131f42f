import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { Settings } from '../settings';

export type ApprovalReason = 'consequential' | 'consequence-unknown' | 'not-read-only' | 'read-untrusted' | 'confirm-all';

/** What the run has seen so far that bears on consent. */
export interface ApprovalContext {
  /** The person allowed tools that change the page on this site without asking. */
  siteAllowed: boolean;
  /** The run has read the output of a tool marked `untrustedContentHint` (reviews, mail, comments). */
  readUntrusted?: boolean;
}

/** Only a web origin can be allowed: an opaque one ("null") would stand for every sandboxed page. */
export function isAllowableSite(origin: string): boolean {
  return /^https?:\/\/[^/]+$/.test(origin);
}

/**
 * Whether a call waits for the person, and why. A consequential tool always asks, whatever the
 * settings or the site; a read-only one never does (unless the person asked to confirm all). Once a
 * run has read text that strangers wrote, "allow on this site" no longer covers the rest of it: that
 * text may be what asks for the call.
 */
export function approvalReason(
  tool: ToolDescriptor,
  settings: Pick<Settings, 'confirmation'>,
  context: ApprovalContext,
): ApprovalReason | null {
  const annotations = tool.annotations ?? {};
  if (annotations.consequentialHint) return 'consequential';
  // The page's library would not say: it may be consequential, so it asks as if it were.
  if (annotations.consequenceUnknown && !annotations.readOnlyHint) return 'consequence-unknown';
  // Every call asks, and no site-wide yes can change that.
  if (settings.confirmation === 'ask-always') return 'confirm-all';
  if (annotations.readOnlyHint) return null;
  // Said apart, because no site-wide yes can answer it.
  if (context.readUntrusted) return 'read-untrusted';
  return context.siteAllowed ? null : 'not-read-only';
}
