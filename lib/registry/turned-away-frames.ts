import { toolLimits } from '../webmcp/tool-limits';
import type { FrameTools } from './frame-tools';

/** Frames a tab remembers having turned away; a page making more loses only the asking again. */
const maxTurnedAwayPerTab = 1_000;

/**
 * By tab: frames inside the page that reported while the tab had no room left for another frame
 * (`innerFrameEntriesPerTab`), so it keeps nothing of them. Bounded, and held only while the
 * worker runs: they are asked to report again when room frees.
 */
export class TurnedAwayFrames {
  private readonly byTab = new Map<number, Set<number>>();

  add(tabId: number, frameId: number): void {
    const turnedAway = this.byTab.get(tabId) ?? new Set<number>();
    if (turnedAway.size < maxTurnedAwayPerTab) turnedAway.add(frameId);
    this.byTab.set(tabId, turnedAway);
  }

  /** The frame (or every frame of the tab) is no longer waiting for room. */
  forget(tabId: number, frameId?: number): void {
    if (frameId === undefined) this.byTab.delete(tabId);
    else this.byTab.get(tabId)?.delete(frameId);
  }

  /** Takes off the tab's list, first turned away first, as many frames as `frames` leaves room for. */
  takeAsRoomAllows(tabId: number, frames: Record<string, FrameTools>): number[] {
    const turnedAway = this.byTab.get(tabId);
    if (!turnedAway) return [];
    const taken: number[] = [];
    let room = toolLimits.innerFrameEntriesPerTab - Object.keys(frames).filter((id) => id !== '0').length;
    for (const frameId of turnedAway) {
      if (room-- <= 0) break;
      turnedAway.delete(frameId);
      taken.push(frameId);
    }
    if (turnedAway.size === 0) this.byTab.delete(tabId);
    return taken;
  }
}
