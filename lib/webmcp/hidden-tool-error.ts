import type { ToolOutput } from '@webmcp-agents/chat';

/**
 * Chrome's words for any error a tool's `execute` threw, and for a result JSON cannot hold (a
 * cycle, a BigInt). Chrome ends there and logs the cause only to the page's console; a JavaScript
 * polyfill writes the same words and then ": " and the message.
 */
const failedInPage = /^Tool was executed but the invocation failed\b[^:]*(?::\s*([\s\S]*))?$/;

/** Whether these are Chrome's words with nothing of the tool's own: why it failed was lost. */
export function browserHidesError(text: string): boolean {
  const match = failedInPage.exec(text);
  return match !== null && !match[1]?.trim();
}

/**
 * A tool's output as the agent passes it on: Chrome's sentence (written for developers) becomes
 * one the person and the model can read, with the page's own message where it came along. Where
 * none came, it is not said who dropped it: Chrome drops every message (and logs it to the page's
 * console), a polyfill a thrown string's.
 */
export function withReadableFailure(name: string, output: ToolOutput): ToolOutput {
  const match = output.isError ? failedInPage.exec(output.text) : null;
  if (!match) return output;
  const said = match[1]?.trim();
  return { text: said ? `The tool "${name}" failed in the page: ${said}` : `The tool "${name}" failed in the page; no reason came with the failure (the page's console may say why).`, isError: true };
}
