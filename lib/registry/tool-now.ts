// Whether a tool is still the one a step showed: a call is judged, asked about and run only for
// the tool the model and the person were shown. Read by a live run and by a replay alike.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { ToolWithdrawn } from '@webmcp-agents/local-agent';
import { toolAsModelReads } from './as-model-reads';
import { pageChangedMessage } from './execute-tab-tool';
import { toolTargetOf } from './tool-target';

export type ToolNow = 'same' | 'changed' | 'removed' | 'page-changed';

/** The tab's tools as the registry lists them now. */
interface TabToolsNow {
  tools: readonly ToolDescriptor[];
}

/**
 * The tool as the tab offers it now where the call would run (its frame, its document): the same
 * as the step showed it, changed (what it does, its parameters, its hints), or removed. A page that
 * marks a tool consequential, or swaps in another of the same name, while the model writes its
 * call or the person decides, gets that call not run, and the model sees the new tool next step.
 */
function toolNow(tabTools: TabToolsNow | undefined, tool: ToolDescriptor): ToolNow {
  const { frameId, documentId } = toolTargetOf(tool);
  const inFrame = (tabTools?.tools ?? []).filter((candidate) => candidate.name === tool.name && (frameId === undefined || toolTargetOf(candidate).frameId === frameId));
  const now = inFrame.find((candidate) => {
    const shown = toolTargetOf(candidate).documentId;
    return documentId === undefined || shown === undefined || shown === documentId;
  });
  // The frame shows another document, whose tool of that name is another tool.
  if (!now) return inFrame.length > 0 ? 'page-changed' : 'removed';
  // A step shows the tool as the model reads it.
  return sameTool(toolAsModelReads(now), tool) ? 'same' : 'changed';
}

/** Why the call of `tool` may not run where the tab no longer offers it as shown (`when` it changed or went). */
export function withdrawnFrom(tabTools: TabToolsNow | undefined, tool: ToolDescriptor, when: string): ToolWithdrawn | undefined {
  const now = toolNow(tabTools, tool);
  return now === 'same' ? undefined : { withdrawn: notRunMessage(tool.name, now, when) };
}

/** Whether two listings of a tool show the same tool: what it does, its parameters, its hints. */
export function sameTool(one: ToolDescriptor, other: ToolDescriptor): boolean {
  return shownFace(one) === shownFace(other);
}

/** What the model and the person are shown of a tool, and what its approval is judged on. */
function shownFace({ title, description, inputSchema, annotations }: ToolDescriptor): string {
  return JSON.stringify([title, description, inputSchema, annotations]);
}

/** What the model reads, and the call's card shows, of a call whose tool went or changed `when`. */
function notRunMessage(name: string, why: Exclude<ToolNow, 'same'>, when: string): string {
  if (why === 'page-changed') return pageChangedMessage(name);
  if (why === 'removed') return `The page removed the tool ${name} ${when}, so it did not run.`;
  return `The page changed the tool ${name} (what it does, its parameters or its hints) ${when}, so it did not run. The next step shows it as it is now: call it again if the request still needs it.`;
}
