import type { RawTool } from './read-tool-fields';
import type { SanitizeResult, ToolContext } from './sanitize-tool';

/**
 * What `sanitizeTool` said of tools read before, by their text: a page whose list changes often
 * (a framework that registers one tool again at each render) is read again and again, and the
 * tools that did not change need not be copied and checked again each time. A tool is known by
 * its fields as text, its schema as JSON (the browser's `getTools()` and the bridge hand over
 * fresh plain objects at each reading, so the same object is no sign of the same tool, and
 * `JSON.stringify` is far quicker than the checking copy). A tool that cannot be written so is
 * checked every time. The oldest give way past `limit`.
 */
export class CheckedToolCache {
  private readonly entries = new Map<string, SanitizeResult>();

  constructor(private readonly limit: number) {}

  /** The result kept for this tool, or the one `check` gives, kept where the tool is all text. */
  check(raw: RawTool, context: ToolContext, check: () => SanitizeResult): SanitizeResult {
    const key = cacheKey(raw, context);
    if (key === undefined) return check();
    const kept = this.entries.get(key);
    if (kept) {
      // Seen again: the last to give way.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const result = check();
    this.entries.set(key, result);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return result;
  }
}

function cacheKey({ name, title, description, inputSchema, annotations }: RawTool, context: ToolContext): string | undefined {
  const text = (value: unknown) => value === undefined || value === null || typeof value === 'string';
  if (!text(name) || !text(title) || !text(description)) return undefined;
  const schema = text(inputSchema) ? inputSchema : schemaKey(inputSchema);
  const hints = annotationsKey(annotations);
  if (schema === undefined || hints === undefined) return undefined;
  // A schema given as text and the same given as an object are told apart.
  const fields = [context.source, context.origin, name, title, description, typeof inputSchema, schema, hints, ...(context.formNotes ?? [])];
  // Each field with its length, so that no two different tools join into the same key.
  return fields.map((field) => (typeof field === 'string' ? `${field.length}:${field}` : `-${String(field)}`)).join('|');
}

/** A schema given as an object, as JSON; undefined where it cannot be written (a cycle, a getter that throws). */
function schemaKey(schema: unknown): string | undefined {
  if (typeof schema !== 'object') return undefined;
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/** Annotations as a key where they are a plain record of a few flat values, else undefined. */
function annotationsKey(annotations: unknown): string | undefined {
  if (annotations === undefined || annotations === null) return String(annotations);
  if (typeof annotations !== 'object' || Object.getPrototypeOf(annotations) !== Object.prototype) return undefined;
  const entries = Object.entries(annotations as Record<string, unknown>);
  if (entries.length > 8 || entries.some(([, value]) => typeof value === 'object' || typeof value === 'function')) return undefined;
  return JSON.stringify(entries);
}
