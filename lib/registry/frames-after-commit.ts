import type { FrameTools } from './frame-tools';

/**
 * The frames a tab keeps once a new document committed in frame `frameId` (in every frame, for
 * the top one): the frame's own report stays if it is of the new document where both are named;
 * the others (and any, without names) stay if they came after the commit.
 */
export function framesAfterCommit(
  frames: Record<string, FrameTools>,
  frameId: number,
  committedAt: number,
  documentId: string | undefined,
): Record<string, FrameTools> {
  const outdated = ([id, frame]: [string, FrameTools]): boolean => {
    if (Number(id) === frameId && documentId !== undefined && frame.documentId !== undefined) return frame.documentId !== documentId;
    return (frameId === 0 || Number(id) === frameId) && frame.updatedAt < committedAt;
  };
  return Object.fromEntries(Object.entries(frames).filter((frame) => !outdated(frame)));
}
