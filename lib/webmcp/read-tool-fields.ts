/**
 * A tool, with each field read out once. Newer Chrome returns `Tool` objects that do not
 * serialise, and polyfilled tools may carry getters, so fields are copied one by one.
 */
export interface RawTool {
  name: unknown;
  title: unknown;
  description: unknown;
  inputSchema: unknown;
  /** What the tool's results look like (Chrome 159, and polyfills): only the inspector reads it. */
  outputSchema: unknown;
  annotations: unknown;
}

const fieldNames = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * What a schema whose getter throws reads as: it is one that cannot be read (the tool is refused,
 * or loses its output schema), not a missing one, which would offer a tool with no arguments.
 */
export const unreadableSchema = Symbol('unreadable schema');

/** Reads the fields a tool may have (see readToolField). Never throws. */
export function readToolFields(tool: unknown): RawTool {
  const raw: RawTool = {
    name: undefined,
    title: undefined,
    description: undefined,
    inputSchema: undefined,
    outputSchema: undefined,
    annotations: undefined,
  };
  if (typeof tool !== 'object' || tool === null) return raw;
  for (const field of fieldNames) raw[field] = readToolField(tool, field);
  return raw;
}

/** One field of a tool; a getter that throws reads as undefined, or as `unreadableSchema` for a schema. Never throws. */
export function readToolField(tool: unknown, field: (typeof fieldNames)[number]): unknown {
  if ((typeof tool !== 'object' && typeof tool !== 'function') || tool === null) return undefined;
  try {
    return (tool as Record<string, unknown>)[field];
  } catch {
    return field === 'inputSchema' || field === 'outputSchema' ? unreadableSchema : undefined;
  }
}
