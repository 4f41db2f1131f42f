/**
 * A tool's input schema with the words of its choices where a small model reads them. Chrome
 * writes a `<select>` or a radio group as `enum` beside `anyOf: [{const, title}]` (the value and
 * what the page shows), but the prompt keeps only `enum` and `description` of a property (see
 * `compactSchema`): so "Friday at six" could never find `s1`. Each property whose choices have
 * titles other than their values says them in its description; the `enum` is added where the
 * schema gave only the `anyOf`. A schema without such choices comes back as it is.
 */
export function foldChoiceTitles(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  let folded: Record<string, unknown> = schema;
  const choices = titledChoices(schema.anyOf) ?? titledChoices(schema.oneOf);
  if (choices) {
    const said = choices.map(({ value, title }) => `${JSON.stringify(value)} = ${title}`).join(', ');
    const description = typeof schema.description === 'string' && schema.description !== '' ? `${schema.description} ` : '';
    folded = { ...folded, description: `${description}(${said})` };
    if (!Array.isArray(schema.enum)) folded.enum = choices.map(({ value }) => value);
  }
  if (isObject(schema.properties)) {
    let changed = false;
    const properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const next = foldChoiceTitles(property);
        changed ||= next !== property;
        return [name, next];
      }),
    );
    if (changed) folded = { ...folded, properties };
  }
  const items = foldChoiceTitles(schema.items);
  if (items !== schema.items) folded = { ...folded, items };
  return folded;
}

/** `[{const, title}, …]` where some title says more than its value; undefined otherwise. */
function titledChoices(list: unknown): Array<{ value: unknown; title: string }> | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const choices: Array<{ value: unknown; title: string }> = [];
  for (const entry of list) {
    if (!isObject(entry) || !('const' in entry)) return undefined;
    choices.push({ value: entry.const, title: typeof entry.title === 'string' ? entry.title.trim() : '' });
  }
  return choices.some(({ value, title }) => title !== '' && title !== String(value)) ? choices.map(({ value, title }) => ({ value, title: title || String(value) })) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
