import { isRecord } from '@webmcp-agents/chat';

/**
 * The words of a tool's choices where a small model reads them. Chrome writes a `<select>` or a
 * radio group as `enum` beside `anyOf: [{const, title}]` (the value and what the page shows), but
 * the prompt keeps only `enum` and `description` of a property (see `compactSchema`): so "Friday
 * at six" could never find `s1`. Each property whose choices have titles other than their values
 * says them in its description. Where they would pass the 160 characters a property's description
 * keeps, a top-level property's choices are given back in `choices`, for the tool's description
 * (which keeps 400), with `inputSchema` pointing there; `inPlace` keeps them in the property's
 * description instead, for a tool whose own description leaves no room. The `enum` is added where
 * the schema gave only the `anyOf`. A schema without such choices comes back as it is.
 */
export function foldChoiceTitles(schema: unknown): { inputSchema: unknown; choices?: string; inPlace?: unknown } {
  const overflow: string[] = [];
  const inputSchema = foldNode(schema, (name, said) => overflow.push(`${name}: ${said}`));
  if (overflow.length === 0) return { inputSchema };
  return { inputSchema, choices: `Choices: ${overflow.join('. ')}.`, inPlace: foldNode(schema) };
}

/** What the compact schema keeps of a property's description. */
const propertyDescriptionLimit = 160;

/** `overflow` takes the choices of a top-level property that do not fit its description. */
function foldNode(schema: unknown, overflow?: (name: string, said: string) => void, name?: string): unknown {
  if (!isRecord(schema)) return schema;
  let folded: Record<string, unknown> = schema;
  const choices = titledChoices(schema.anyOf) ?? titledChoices(schema.oneOf);
  if (choices) {
    const said = choices.map(({ value, title }) => `${sayValue(value)} = ${title}`).join(', ');
    const own = typeof schema.description === 'string' ? schema.description : '';
    const inDescription = `${own === '' ? '' : `${own} `}(${said})`;
    if (inDescription.length <= propertyDescriptionLimit || !overflow || name === undefined) folded = { ...folded, description: inDescription };
    else {
      overflow(name, said);
      folded = { ...folded, description: `${own === '' ? '' : `${own} `}(the tool's description says what each value means)` };
    }
    if (!Array.isArray(schema.enum)) folded.enum = choices.map(({ value }) => value);
  }
  if (isRecord(schema.properties)) {
    let changed = false;
    const properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, property]) => {
        // Only the tool's own arguments may send their choices up to the tool's description.
        const next = foldNode(property, name === undefined ? overflow : undefined, name === undefined ? key : undefined);
        changed ||= next !== property;
        return [key, next];
      }),
    );
    if (changed) folded = { ...folded, properties };
  }
  const items = foldNode(schema.items);
  if (items !== schema.items) folded = { ...folded, items };
  return folded;
}

// A word as it is; an empty string, or one that reads as a number or a literal, as JSON, so that
// "" and "1" are not taken for nothing and for the number 1.
function sayValue(value: unknown): string {
  return typeof value === 'string' && value !== '' && !/^(?:[-+.\d]|true$|false$|null$)/.test(value) ? value : JSON.stringify(value);
}

/** The titles a property's choices have (`anyOf`/`oneOf` of `{const, title}`), where some says more than its value. */
export function choiceTitles(property: unknown): Array<{ value: unknown; title: string }> | undefined {
  return isRecord(property) ? (titledChoices(property.anyOf) ?? titledChoices(property.oneOf)) : undefined;
}

/** `[{const, title}, …]` where some title says more than its value; undefined otherwise. */
function titledChoices(list: unknown): Array<{ value: unknown; title: string }> | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const choices: Array<{ value: unknown; title: string }> = [];
  for (const entry of list) {
    if (!isRecord(entry) || !('const' in entry)) return undefined;
    choices.push({ value: entry.const, title: typeof entry.title === 'string' ? entry.title.trim() : '' });
  }
  return choices.some(({ value, title }) => title !== '' && title !== String(value)) ? choices.map(({ value, title }) => ({ value, title: title || String(value) })) : undefined;
}
