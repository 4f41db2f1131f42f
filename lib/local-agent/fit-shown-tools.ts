import type { ShownTool } from './agent-events';
import { estimateTokens } from './estimate-tokens';

/**
 * The shown tools whose system prompt (`promptFor`) fits `roomTokens` as `estimateTokens` counts,
 * with that prompt:
 * the lowest-scored go first (the later of equals), the rest stay in their order, and the best one
 * stays whatever its size. A page whose forms list every country can otherwise fill a 4,096-token
 * context before the model writes a word. The same tools and room always give the same list, so
 * the prompt stays byte-identical from step to step.
 */
export function fitShownTools(
  shown: readonly ShownTool[],
  roomTokens: number,
  promptFor: (shown: readonly ShownTool[]) => string,
): { shown: readonly ShownTool[]; system: string } {
  let kept = shown;
  let system = promptFor(kept);
  while (kept.length > 1 && estimateTokens(system) > roomTokens) {
    let weakest = kept.length - 1;
    for (let index = kept.length - 2; index >= 0; index -= 1) if (kept[index]!.score < kept[weakest]!.score) weakest = index;
    kept = kept.filter((_, index) => index !== weakest);
    system = promptFor(kept);
  }
  return { shown: kept, system };
}
