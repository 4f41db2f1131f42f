/**
 * The first `limit` UTF-16 units of `text`, one fewer where the cut would split a surrogate
 * pair, so that the result never ends in half a character.
 */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const lastKept = text.charCodeAt(limit - 1);
  const endsInHighSurrogate = lastKept >= 0xd800 && lastKept <= 0xdbff;
  return text.slice(0, endsInHighSurrogate ? limit - 1 : limit);
}
