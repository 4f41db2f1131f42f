import type { ActiveRun } from './active-run';

/**
 * A run about to go on in a tab, for turn `turnId` of conversation `generation`, and how to mark it
 * ended: what waits for it (`whenIdle`, a loaded page's result) waits on `ended`.
 */
export function newActiveRun(generation: number, turnId: string): { active: ActiveRun; markEnded: () => void } {
  let markEnded = (): void => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const active: ActiveRun = { controller: new AbortController(), generation, approvals: new Map(), readUntrusted: false, turnId, ended };
  return { active, markEnded };
}
