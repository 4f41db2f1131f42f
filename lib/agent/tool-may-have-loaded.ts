/** A new document this soon after a tool's call ended may be that tool's doing (a form that posts). */
const navigationAfterToolMs = 10_000;

/**
 * Whether the run's last tool may be what loaded the tab's new document: it is still running, or
 * ended a moment ago. The clock is read only for a call that has ended.
 */
export function toolMayHaveLoaded(tool: { endedAt?: number }, now: () => number = Date.now): boolean {
  return tool.endedAt === undefined || now() - tool.endedAt < navigationAfterToolMs;
}
