/** Whether `text` is one whole JSON value, and nothing else. */
export function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
