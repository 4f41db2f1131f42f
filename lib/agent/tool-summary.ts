// The words a call's card shows for its tool while the call waits for the person's yes.
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { capText } from '../traces/trace-limits';

/** What a tool says it does, as the person reads it before allowing a call: its description, cut. */
export function toolSummary(tool: ToolDescriptor): string {
  return capText((tool.description ?? '').replace(/\s+/g, ' ').trim(), toolSummaryCharacters);
}

const toolSummaryCharacters = 300;
