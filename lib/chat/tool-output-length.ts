import type { ToolOutput } from './tool-descriptor';

/** A tool's output length as the page gave it: before any cut the extension made to carry it. */
export function toolOutputLength(output: ToolOutput): number {
  const { fullLength } = output;
  return Number.isSafeInteger(fullLength) && fullLength! > output.text.length ? fullLength! : output.text.length;
}
