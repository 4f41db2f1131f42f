// A frame asked to report again (a panel opening, a worker waking) mostly reports what it did
// before: that changes nothing, and the badge, the panels and a run waiting for the tools to settle
// need not hear of it.
import type { TabEntry } from './frame-tools';

/**
 * Whether `after`, the tab once a frame's report replaced what the frame had, is `before` but for
 * when that frame last reported: the same tools in the same order with the same schemas and
 * annotations, the same refusals, addresses, document and tab title. Both frames are built the
 * same way (see `tabEntryWithReport`), so their JSON is their canonical form.
 */
export function sameFrameReport(before: TabEntry, after: TabEntry, frameId: number): boolean {
  const was = before.frames[frameId];
  const now = after.frames[frameId];
  if (!was || !now || before.tabUrl !== after.tabUrl || before.tabTitle !== after.tabTitle) return false;
  return JSON.stringify({ ...was, updatedAt: 0 }) === JSON.stringify({ ...now, updatedAt: 0 });
}
