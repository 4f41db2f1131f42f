import type { DroppedToolReport, ReportedTool } from '../webmcp/reported-tool';
import { displayName } from '../webmcp/sanitize-tool';
import { toolLimits } from '../webmcp/tool-limits';
import type { FrameTools } from './frame-tools';

/** What a tab keeps of one frame's report: the tools that fit, and the dropped ones with why. */
export interface FittedFrame {
  tools: ReportedTool[];
  dropped: DroppedToolReport[];
  /** Tools were left out for want of room in the tab: the frame may report again when room frees. */
  cut?: true;
}

/**
 * Fits a frame's checked tools into its tab (the caps are explained in `toolLimits`). The top frame
 * gets one frame's caps; the frames inside the page share another, first come first served. A frame
 * past `innerFramesPerTab` keeps no tools and one line says why, whatever it offered, since a page
 * can make any number of frames. A frame's dropped list stays bounded: the report's own is capped by
 * its schema, and each of its tools is either kept or dropped once.
 */
export function fitFrameToTab(
  frames: Record<string, FrameTools>,
  frameId: number,
  tools: readonly ReportedTool[],
  dropped: readonly DroppedToolReport[],
): FittedFrame | null {
  if (frameId !== 0) {
    const innerFrames = Object.keys(frames).filter((id) => id !== '0' && Number(id) !== frameId).length;
    // Past this many frames the tab keeps nothing more of them, not even why.
    if (innerFrames >= toolLimits.innerFrameEntriesPerTab) return null;
  }
  const others = frameId === 0 ? [] : innerFramesWithTools(frames, frameId);
  if (tools.length > 0 && others.length >= toolLimits.innerFramesPerTab) {
    const reason = `more than ${toolLimits.innerFramesPerTab} frames inside this page offer tools`;
    return { tools: [], dropped: [{ name: `(${tools.length} ${tools.length === 1 ? 'tool' : 'tools'})`, reason }], cut: true };
  }
  const room = toolLimits.toolsPerFrame - others.reduce((sum, frame) => sum + frame.tools.length, 0);
  let characters = toolLimits.reportCharacters - others.reduce((sum, frame) => sum + charactersOf(frame), 0);
  const reasons = (frameReasons ??= writeReasons())[frameId === 0 ? 'top' : 'inner'];
  const kept: ReportedTool[] = [];
  const cut: DroppedToolReport[] = [];
  for (const tool of tools) {
    const size = JSON.stringify(tool).length;
    if (kept.length >= room) cut.push({ name: displayName(tool.name), reason: reasons.tools });
    else if (size > characters) cut.push({ name: displayName(tool.name), reason: reasons.characters });
    else {
      kept.push(tool);
      characters -= size;
    }
  }
  const fitted: FittedFrame = { tools: kept, dropped: frameId === 0 ? [...dropped, ...cut] : shareDropped(frames, frameId, [...dropped, ...cut]) };
  return cut.length > 0 ? { ...fitted, cut: true } : fitted;
}

// The frames inside a page share one list of refusals; past it, a frame says how many more in a line.
function shareDropped(frames: Record<string, FrameTools>, frameId: number, dropped: DroppedToolReport[]): DroppedToolReport[] {
  const listed = Object.entries(frames).reduce((sum, [id, frame]) => (id === '0' || Number(id) === frameId ? sum : sum + frame.dropped.length), 0);
  const room = Math.max(0, toolLimits.innerDroppedPerTab - listed - 1);
  if (dropped.length <= room + 1) return dropped;
  const more = dropped.length - room;
  return [...dropped.slice(0, room), { name: `(${more} more)`, reason: 'the frames inside this page refused too many tools to list each' }];
}

// Written the first time a frame's tools are fitted: formatting the number is the worker's first
// use of Intl, which takes a millisecond or two that a start without tools need not pay.
let frameReasons: ReturnType<typeof writeReasons> | undefined;

function writeReasons() {
  const characterLimit = toolLimits.reportCharacters.toLocaleString('en-US');
  return {
    top: {
      tools: `the page offers more than ${toolLimits.toolsPerFrame} tools`,
      characters: `the page's tools together pass the limit of ${characterLimit} characters`,
    },
    inner: {
      tools: `the frames inside this page together offer more than ${toolLimits.toolsPerFrame} tools`,
      characters: `the tools of the frames inside this page together pass the limit of ${characterLimit} characters`,
    },
  };
}

function innerFramesWithTools(frames: Record<string, FrameTools>, frameId: number): FrameTools[] {
  return Object.entries(frames)
    .filter(([id, frame]) => id !== '0' && Number(id) !== frameId && frame.tools.length > 0)
    .map(([, frame]) => frame);
}

// A frame's size is measured once: a report replaces one frame, and the others keep their objects.
const characterCounts = new WeakMap<FrameTools, number>();

function charactersOf(frame: FrameTools): number {
  let characters = characterCounts.get(frame);
  if (characters === undefined) {
    characters = frame.tools.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
    characterCounts.set(frame, characters);
  }
  return characters;
}
