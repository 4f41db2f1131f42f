import { promptFormats, type PromptFormat, type PromptFormatId } from '@webmcp-agents/local-agent';
import type { StoredTrace } from './trace-schema';

/** Marks each format's system prompt leaves, for traces recorded without the format's name. */
const systemPromptMarks: Array<[string, PromptFormatId]> = [
  ['<|tool_list_start|>', 'lfm2'],
  ['<tools>', 'hermes'],
  ['{"type": "tool_call"', 'prompt-api'],
  ['You have access to the following functions', 'llama3-json'],
];

/** The prompt format a recorded run used, so a replay gives the model's replies back the same way. */
export function promptFormatOf({ run, steps }: StoredTrace): PromptFormat {
  // Own keys only: a file's format may name an inherited one ("toString"), which is no format.
  if (run.format && Object.hasOwn(promptFormats, run.format)) return promptFormats[run.format as PromptFormatId];
  const system = steps[0]?.messages.find((message) => message.role === 'system')?.content ?? '';
  const mark = systemPromptMarks.find(([text]) => system.includes(text));
  return promptFormats[mark?.[1] ?? 'hermes'];
}
