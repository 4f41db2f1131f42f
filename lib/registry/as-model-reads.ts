// What the model is given of a page: its tools' words and its results without the characters that
// spell text a person never sees (see withoutUnseenText).
import type { JSONSchema, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { withoutUnseenText } from '../text/hidden-characters';

const readByTheModel = new WeakMap<ToolDescriptor, ToolDescriptor>();

/**
 * The tool as the model reads it: its title and description, and the titles and descriptions in
 * its schema, without unseen characters. Names, keys and values stay as the page wrote them, for
 * the call to reach the page as the page checks it. The same object where nothing is taken out,
 * and the same copy for the same tool at every step, so the ranker's cache and the prompt hold.
 */
export function toolAsModelReads(tool: ToolDescriptor): ToolDescriptor {
  const known = readByTheModel.get(tool);
  if (known) return known;
  const title = tool.title === undefined ? undefined : withoutUnseenText(tool.title);
  const description = withoutUnseenText(tool.description);
  const inputSchema = schemaWords(tool.inputSchema) as JSONSchema;
  const read = title === tool.title && description === tool.description && inputSchema === tool.inputSchema ? tool : { ...tool, ...(title === undefined ? {} : { title }), description, inputSchema };
  readByTheModel.set(tool, read);
  return read;
}

/** A tool's result as the model reads it. */
export function outputAsModelReads(output: ToolOutput): ToolOutput {
  const text = withoutUnseenText(output.text);
  return text === output.text ? output : { ...output, text };
}

const pageValues = new Set(['enum', 'const', 'default', 'examples']);

/** A schema value with its words (`title`, `description`) read as the model reads them; the same value where none changes. */
function schemaWords(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(schemaWords);
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, inner] of Object.entries(value)) {
    // Values the page checks a call against are its own.
    if (pageValues.has(key)) continue;
    const read = (key === 'title' || key === 'description') && typeof inner === 'string' ? withoutUnseenText(inner) : schemaWords(inner);
    if (read === inner) continue;
    copy ??= { ...value };
    // Defined, not set: a key "__proto__" from the page's JSON stays a key.
    Object.defineProperty(copy, key, { value: read, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}
