// What the model is given of a page: its tools' words and its results without the characters that
// spell text a person never sees (see withoutUnseenText).
import type { JSONSchema, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { withoutUnseenText } from '../text/hidden-characters';
import { withReadableFailure } from '../webmcp/hidden-tool-error';

interface ReadTool {
  title: string | undefined;
  description: string;
  inputSchema: JSONSchema;
  read: ToolDescriptor;
}

// The fields are compared, as the ranker's cache does, so a tool edited in place is read again.
const readByTheModel = new WeakMap<ToolDescriptor, ReadTool>();

/**
 * The tool as the model reads it: its title, its description and every word of its schema (the
 * parameters' names and descriptions, the values it lists) without unseen characters. Its name
 * has none (a tool's name is letters, digits, "_", "." and "-"). A page that hid such characters
 * in a name or value it checks gets the call as the model wrote it, without them. The same object
 * where nothing is taken out, and the same copy for the same tool at every step, so the ranker's
 * cache and the prompt's bytes hold.
 */
export function toolAsModelReads(tool: ToolDescriptor): ToolDescriptor {
  const known = readByTheModel.get(tool);
  if (known && known.title === tool.title && known.description === tool.description && known.inputSchema === tool.inputSchema) return known.read;
  const title = tool.title === undefined ? undefined : withoutUnseenText(tool.title);
  const description = withoutUnseenText(tool.description);
  const inputSchema = schemaAsRead(tool.inputSchema) as JSONSchema;
  const same = title === tool.title && description === tool.description && inputSchema === tool.inputSchema;
  const read = same ? tool : { ...tool, ...(title === undefined ? {} : { title }), description, inputSchema };
  readByTheModel.set(tool, { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, read });
  return read;
}

/**
 * A tool's result as the model reads it. Where characters were taken out, a line says so: the
 * person reading the call's card learns that the page hid something there, and the model that
 * it was not meant to read it.
 */
export function outputAsModelReads(output: ToolOutput): ToolOutput {
  const text = withoutUnseenText(output.text);
  if (text === output.text) return output;
  // Each character taken out is a pair of UTF-16 units (plane 14).
  const takenOut = (output.text.length - text.length) / 2;
  return { ...output, text: `${text}\n[${takenOut} invisible characters the page's text held were taken out.]` };
}

/**
 * The result of a call of `name` as the model reads it: Chrome's words for a tool that threw made
 * readable (see `withReadableFailure`), unseen characters taken out. A live run and a replay read a
 * result alike, so a replay of an unchanged page finds what the run recorded.
 */
export function callResultAsModelReads(name: string, output: ToolOutput): ToolOutput {
  return outputAsModelReads(withReadableFailure(name, output));
}

/** A schema value with every string and key read as the model reads them; the same value where none changes. */
function schemaAsRead(value: unknown): unknown {
  if (typeof value === 'string') return withoutUnseenText(value);
  if (Array.isArray(value)) {
    const items = value.map(schemaAsRead);
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  const read = entries.map(([key, inner]) => [withoutUnseenText(key), schemaAsRead(inner)] as const);
  if (read.every(([key, inner], index) => key === entries[index]![0] && inner === entries[index]![1])) return value;
  const copy: Record<string, unknown> = {};
  // Defined, not set: a key "__proto__" from the page's JSON stays a key.
  for (const [key, inner] of read) Object.defineProperty(copy, key, { value: inner, enumerable: true, writable: true, configurable: true });
  return copy;
}
