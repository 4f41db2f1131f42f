import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { Settings } from '../settings';

export type ApprovalReason = 'consequential' | 'not-read-only';

/**
 * Whether a call waits for the person, and why. A consequential tool always asks, whatever the
 * settings or the site; a read-only one never does (unless the person asked to confirm all).
 */
export function approvalReason(
  tool: ToolDescriptor,
  settings: Pick<Settings, 'confirmation'>,
  siteAllowed: boolean,
): ApprovalReason | null {
  const annotations = tool.annotations ?? {};
  if (annotations.consequentialHint) return 'consequential';
  if (settings.confirmation === 'ask-always') return 'not-read-only';
  if (annotations.readOnlyHint) return null;
  return siteAllowed ? null : 'not-read-only';
}
