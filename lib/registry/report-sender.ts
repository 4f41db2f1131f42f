/** The frame a report came from, as the browser names it. */
export interface ReportSender {
  tabId: number;
  frameId: number;
  url: string;
  origin: string;
  tabUrl?: string;
  /** The tab's title as the browser told it with the report. */
  tabTitle?: string;
  /** The sending document (Chrome 106+): a frame keeps its id from one document to the next. */
  documentId?: string;
}
