import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { Settings } from '../settings';

/** Why a call waits for the person: the card's words and its buttons follow from it. */
export const approvalReasons = ['consequential', 'consequence-unknown', 'other-site', 'not-read-only', 'read-untrusted', 'confirm-all'] as const;
export type ApprovalReason = (typeof approvalReasons)[number];

/** What the run has seen so far that bears on consent. */
export interface ApprovalContext {
  /** The person allowed tools that change the page on this site without asking. */
  siteAllowed: boolean;
  /**
   * The run has read text that strangers wrote: the output of a tool marked `untrustedContentHint`
   * (reviews, mail, comments), or the words of another site framed in the page (its tools'
   * descriptions, shown to the model, and their answers).
   */
  readUntrusted?: boolean;
  /** The tool is a frame's of another site than the tab's: what a call carries goes to that site. */
  otherSite?: boolean;
}

/** Only a web origin can be allowed: an opaque one ("null") would stand for every sandboxed page. */
export function isAllowableSite(origin: string): boolean {
  return /^https?:\/\/[^/]+$/.test(origin);
}

/**
 * Whether a call waits for the person, and why. A consequential tool always asks, whatever the
 * settings or the site, and so does a tool of another site framed in the page, read-only or not:
 * its hint is that site's promise about what it does, not about what it learns from the call's
 * arguments (the page's data, the person's words). Another read-only tool never asks (unless the
 * person asked to confirm all). Once a run has read text that strangers wrote, "allow on this
 * site" no longer covers the rest of it: that text may be what asks for the call.
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
  if (context.otherSite) return 'other-site';
  // Every call asks, and no site-wide yes can change that.
  if (settings.confirmation === 'ask-always') return 'confirm-all';
  if (annotations.readOnlyHint) return null;
  // Said apart, because no site-wide yes can answer it.
  if (context.readUntrusted) return 'read-untrusted';
  return context.siteAllowed ? null : 'not-read-only';
}
