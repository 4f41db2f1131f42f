// A server's error fields are read off whatever object it sent: unlike `isRecord`, an array counts,
// as it always has here.
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
