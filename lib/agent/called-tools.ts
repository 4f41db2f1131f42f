// A follow-up ("try WELCOME5 instead") rarely names the tool it is about: the run favours the tools
// the request before it called (see RunLocalAgentOptions.recentTools).
import type { Turn } from './session-state';

/** The tools a turn's calls named, the latest first, each once. */
export function calledTools(turn: Turn | undefined): string[] {
  const names = (turn?.items ?? []).flatMap((item) => (item.kind === 'tool' ? [item.name] : []));
  return [...new Set(names.reverse())];
}
