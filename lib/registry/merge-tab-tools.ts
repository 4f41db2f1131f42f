import type { FrameTools, TabEntry } from './frame-tools';
import type { TabTools } from './types';
import { originOf } from '../text/origin-of';

/**
 * A tab's frames as one list: the top frame (id 0) first, then the others by id. The tab's site is
 * the top frame's origin, as the top frame or (when it has no tools) a frame inside it reported it.
 */
export function mergeTabTools(tabId: number, entry: TabEntry): TabTools | undefined {
  const frames = Object.entries(entry.frames)
    .map(([frameId, frame]) => ({ frameId: Number(frameId), frame }))
    .sort((left, right) => left.frameId - right.frameId);
  if (frames.length === 0) return undefined;
  const top = frames.find(({ frameId }) => frameId === 0)?.frame;
  const reportedTop = frames.find(({ frame }) => frame.topOrigin !== undefined)?.frame.topOrigin;
  const url = topAddress(top, entry.tabUrl) ?? reportedTop ?? frames[0]!.frame.url;
  return {
    tabId,
    url,
    origin: top?.origin ?? reportedTop ?? originOf(url) ?? '',
    ...(entry.tabTitle ? { title: entry.tabTitle } : {}),
    ...(top?.documentId === undefined ? {} : { documentId: top.documentId }),
    tools: frames.flatMap(({ frameId, frame }) => {
      const document = frame.documentId === undefined ? {} : { documentId: frame.documentId };
      return frame.tools.map((tool) => ({ ...tool, frameId, ...document }));
    }),
    dropped: frames.flatMap(({ frameId, frame }) => frame.dropped.map((dropped) => ({ ...dropped, frameId }))),
    updatedAt: Math.max(...frames.map(({ frame }) => frame.updatedAt)),
  };
}

/**
 * The top frame's address: the tab's as the browser last told it, which follows a single-page
 * app's moves (the frame's own is where its document loaded), where it is of the frame's site.
 */
function topAddress(top: FrameTools | undefined, tabUrl: string | undefined): string | undefined {
  if (!top) return tabUrl;
  return tabUrl !== undefined && originOf(tabUrl) === top.origin ? tabUrl : top.url;
}
