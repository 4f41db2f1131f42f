import type { ShownTool } from './agent-events';
import type { PromptFormat } from './formats';
import { toolJson } from './formats/prompt-format';

/**
 * Builds the system prompt for the tools shown at a step. A run gets back the very same prompt
 * whenever the same tools are shown again, in any order (each set's prompt is kept for the run:
 * fitting the tools to the context tries several sets at every step), so the engine can reuse its
 * cached prefix.
 */
export function createSystemPromptCache(format: PromptFormat, instructions: string) {
  const prompts = new Map<string, string>();
  return (shown: readonly ShownTool[]): string => {
    const key = shown
      .map(({ tool }) => toolJson(tool))
      .sort()
      .join('\n');
    let prompt = prompts.get(key);
    if (prompt === undefined) {
      prompt = format.systemPrompt(
        shown.map(({ tool }) => tool),
        instructions,
      );
      prompts.set(key, prompt);
    }
    return prompt;
  };
}
