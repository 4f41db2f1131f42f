import type { ShownTool } from './agent-events';
import type { PromptFormat } from './formats';
import { toolJson } from './formats/prompt-format';

/**
 * Builds the system prompt for the tools shown at a step, and gives back the very same string
 * while the same tools are shown (in any order), so the engine can reuse its cached prefix.
 */
export function createSystemPromptCache(format: PromptFormat, instructions: string) {
  let previousKey: string | undefined;
  let previousPrompt = '';
  return (shown: readonly ShownTool[]): string => {
    const key = shown
      .map(({ tool }) => toolJson(tool))
      .sort()
      .join('\n');
    if (key !== previousKey) {
      previousKey = key;
      previousPrompt = format.systemPrompt(
        shown.map(({ tool }) => tool),
        instructions,
      );
    }
    return previousPrompt;
  };
}
