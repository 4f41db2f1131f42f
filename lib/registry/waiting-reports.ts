import type { ToolsReport } from '../messaging/protocol';
import type { ReportSender } from './report-sender';

/** A frame's report that waits its turn; a newer report of the frame takes its place. */
export interface WaitingReport {
  sender: ReportSender;
  report: ToolsReport;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The reports waiting in their tab's queue, by tab, then frame: a frame that reports faster than
 * its tab applies keeps one report waiting, not a queue of them.
 */
export class WaitingReports {
  private readonly byTab = new Map<number, Map<number, WaitingReport>>();

  /**
   * Holds a frame's report until its turn. A report already waiting for the frame is resolved and
   * takes this one's place (undefined back: it is queued already); otherwise the new slot comes back to queue.
   */
  hold(sender: ReportSender, report: ToolsReport, resolve: () => void, reject: (error: unknown) => void): WaitingReport | undefined {
    const frames = this.byTab.get(sender.tabId) ?? new Map<number, WaitingReport>();
    this.byTab.set(sender.tabId, frames);
    const waiting = frames.get(sender.frameId);
    if (waiting) {
      waiting.resolve();
      Object.assign(waiting, { sender, report, resolve, reject });
      return undefined;
    }
    const slot: WaitingReport = { sender, report, resolve, reject };
    frames.set(sender.frameId, slot);
    return slot;
  }

  /** The slot's turn came: a later report of its frame queues anew, unless the slot was let go already. */
  turnCame(tabId: number, frameId: number, slot: WaitingReport): void {
    if (this.byTab.get(tabId)?.get(frameId) === slot) this.stop(tabId, frameId);
  }

  /** Later reports of the frame (or of every frame of the tab) queue after what comes next. */
  stop(tabId: number, frameId?: number): void {
    const frames = this.byTab.get(tabId);
    if (frameId === undefined) frames?.clear();
    else frames?.delete(frameId);
    if (frames?.size === 0) this.byTab.delete(tabId);
  }
}
