import type { ToolsReport } from '../messaging/protocol';
import type { FittedFrame } from './fit-frame-to-tab';
import type { TabEntry } from './frame-tools';
import type { ReportSender } from './report-sender';

/**
 * The tab's entry once a frame's report, fitted to the tab, replaced what the frame had: the
 * frame's address and document come from the browser, and the tab's address and title stay known.
 */
export function tabEntryWithReport(entry: TabEntry, sender: ReportSender, report: ToolsReport, fitted: FittedFrame, updatedAt: number): TabEntry {
  const frame = {
    url: sender.url,
    origin: sender.origin,
    ...(sender.documentId === undefined ? {} : { documentId: sender.documentId }),
    ...(report.topOrigin === undefined ? {} : { topOrigin: sender.frameId === 0 ? sender.origin : report.topOrigin }),
    updatedAt,
    ...fitted,
  };
  const tabTitle = sender.tabTitle ?? entry.tabTitle;
  return {
    tabUrl: sender.tabUrl ?? entry.tabUrl,
    ...(tabTitle === undefined ? {} : { tabTitle }),
    frames: { ...entry.frames, [sender.frameId]: frame },
  };
}
