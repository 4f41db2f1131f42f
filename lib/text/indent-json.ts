/**
 * A JSON object or array laid out as `JSON.stringify(value, null, 2)` would, but from its text: a
 * number or an escape stays exactly as the page wrote it (parsing would round
 * 12345678901234567890). Undefined for anything else, and past `limit` characters: indents add
 * characters, and a deeply nested text would add millions.
 */
export function indentJson(json: string, limit: number): string | undefined {
  if (!/^\s*[[{]/.test(json)) return undefined;
  try {
    JSON.parse(json);
  } catch {
    return undefined;
  }
  let shown = '';
  let depth = 0;
  const newLine = () => `\n${'  '.repeat(depth)}`;
  for (let index = 0; index < json.length; index += 1) {
    const character = json[index]!;
    if (character === '"') {
      const end = stringEnd(json, index);
      shown += json.slice(index, end);
      index = end - 1;
    } else if (character === '{' || character === '[') {
      const next = nextNonSpace(json, index + 1);
      // An empty object or array stays on one line, as JSON.stringify writes it.
      if (json[next] === '}' || json[next] === ']') {
        shown += character + json[next];
        index = next;
      } else {
        depth += 1;
        shown += character + newLine();
      }
    } else if (character === '}' || character === ']') {
      depth -= 1;
      shown += newLine() + character;
    } else if (character === ',') shown += `,${newLine()}`;
    else if (character === ':') shown += ': ';
    else if (!/\s/.test(character)) shown += character;
    if (shown.length > limit) return undefined;
  }
  return shown;
}

/** Where the string that opens at `start` ends, its closing quote included. */
function stringEnd(json: string, start: number): number {
  let index = start + 1;
  while (json[index] !== '"') index += json[index] === '\\' ? 2 : 1;
  return index + 1;
}

function nextNonSpace(json: string, from: number): number {
  let index = from;
  while (index < json.length && /\s/.test(json[index]!)) index += 1;
  return index;
}
