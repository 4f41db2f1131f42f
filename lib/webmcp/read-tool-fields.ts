/**
 * A page's tool with each field read out once. Newer Chrome returns `Tool` objects that do not
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

/** Reads the fields a tool may have; a field whose getter throws reads as undefined. Never throws. */
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
  for (const field of fieldNames) raw[field] = readField(tool, field);
  return raw;
}

function readField(tool: object, field: string): unknown {
  try {
    return (tool as Record<string, unknown>)[field];
  } catch {
    return undefined;
  }
}
