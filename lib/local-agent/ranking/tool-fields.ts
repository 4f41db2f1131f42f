import { isRecord, type ToolDescriptor } from '@webmcp-agents/chat';

/** The parts of a tool that a request is matched against, as plain text. */
export interface ToolFields {
  name: string;
  title: string;
  description: string;
  parameterNames: string;
  parameterDescriptions: string;
}

export type ToolFieldName = keyof ToolFields;

export const toolFieldNames: readonly ToolFieldName[] = [
  'name',
  'title',
  'description',
  'parameterNames',
  'parameterDescriptions',
];

// Page data is untrusted: bound the work one tool can cause.
const maxTextLength = 2000;
const maxParameters = 64;
const maxDepth = 3;

/**
 * Reads the searchable text of a tool. Never throws: a missing or junk schema, a non-string
 * description or a cyclic schema simply contributes nothing.
 */
export function toolFields(tool: ToolDescriptor): ToolFields {
  const names: string[] = [];
  const descriptions: string[] = [];
  const record: Record<string, unknown> = isRecord(tool) ? tool : {};
  collectParameters(record['inputSchema'], 0, names, descriptions);
  return {
    name: text(record['name']),
    title: text(record['title']),
    description: text(record['description']),
    parameterNames: names.join(' '),
    parameterDescriptions: descriptions.join(' ').slice(0, maxTextLength),
  };
}

function collectParameters(
  schema: unknown,
  depth: number,
  names: string[],
  descriptions: string[],
): void {
  if (depth >= maxDepth || !isRecord(schema)) return;
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      if (names.length >= maxParameters) return;
      names.push(name);
      if (!isRecord(property)) continue;
      const description = text(property['description']);
      if (description !== '') descriptions.push(description);
      collectParameters(property, depth + 1, names, descriptions);
    }
  }
  collectParameters(schema['items'], depth + 1, names, descriptions);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, maxTextLength) : '';
}
