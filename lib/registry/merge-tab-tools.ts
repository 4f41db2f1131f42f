import type { TabEntry } from './frame-tools';
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
  const url = top?.url ?? entry.tabUrl ?? reportedTop ?? frames[0]!.frame.url;
  return {
    tabId,
    url,
    origin: top?.origin ?? reportedTop ?? originOf(url) ?? '',
    ...(entry.tabTitle ? { title: entry.tabTitle } : {}),
    tools: frames.flatMap(({ frameId, frame }) => {
      const document = frame.documentId === undefined ? {} : { documentId: frame.documentId };
      return frame.tools.map((tool) => ({ ...tool, frameId, ...document }));
    }),
    dropped: frames.flatMap(({ frameId, frame }) => frame.dropped.map((dropped) => ({ ...dropped, frameId }))),
    updatedAt: Math.max(...frames.map(({ frame }) => frame.updatedAt)),
  };
}
