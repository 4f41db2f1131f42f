/**
 * A schema built the first time it is asked for, then kept. The content script runs in every
 * frame of every page, and most frames never check a tool or a message: building zod schemas
 * when the script loads cost each of them tens of milliseconds.
 */
export function lazySchema<Schema>(build: () => Schema): () => Schema {
  let schema: Schema | undefined;
  return () => (schema ??= build());
}
