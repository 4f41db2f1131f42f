/** Whether `value` is a JSON object (not null, not an array): what a schema, a tool or arguments must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
