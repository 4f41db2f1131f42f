import type { ToolOutput } from '@webmcp-agents/chat';

/**
 * Chrome's words for any error a tool's `execute` threw (or a result it could not copy): the
 * tool's own message is lost on the way.
 */
export function browserHidesError(text: string): boolean {
  return text.startsWith('Tool was executed but the invocation failed');
}

/**
 * A tool's output as the agent passes it on: where Chrome hid why the tool failed, its sentence
 * (written for developers) becomes one the person and the model can read.
 */
export function withReadableFailure(name: string, output: ToolOutput): ToolOutput {
  if (!output.isError || !browserHidesError(output.text)) return output;
  return { text: `The tool "${name}" failed in the page, and the page did not say why.`, isError: true };
}
