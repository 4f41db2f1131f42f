/**
 * `text` in at most `limit` characters: when longer, its start and then a line that says how many
 * of its characters were cut. Cutting it again changes nothing. Free of imports, so the page-world
 * bridge can use it.
 */
export function cutAndSay(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = (kept: number): string => `\n… (cut: ${text.length - kept} of ${text.length} characters not shown)`;
  let kept = Math.max(0, limit - marker(0).length);
  // Never half a character: a cut between the two halves of an emoji keeps neither.
  const last = text.charCodeAt(kept - 1);
  if (kept > 0 && last >= 0xd800 && last <= 0xdbff) kept -= 1;
  return text.slice(0, kept) + marker(kept);
}
