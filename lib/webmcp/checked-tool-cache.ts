import type { RawTool } from './read-tool-fields';
import type { SanitizeResult, ToolContext } from './sanitize-tool';
import { toolLimits } from './tool-limits';

/**
 * What `sanitizeTool` said of tools read before, by their text: a page whose list changes often
 * (a framework that registers one tool again at each render) is read again and again, and the
 * tools that did not change need not be copied and checked again each time. A tool is known by
 * its fields as text, its schemas as JSON (the browser's `getTools()` and the bridge hand over
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

/**
 * The tool as a key: its fields as text, its schemas and annotations as plain JSON. Undefined (the
 * tool is checked every time) for anything the key could not tell apart from what the check
 * refuses, or that would cost more to write than to check: a field past its limit, a value that
 * is not plain JSON (a number that is not finite, a Date, a getter that throws), more values than
 * the check reads.
 */
function cacheKey({ name, title, description, inputSchema, outputSchema, annotations }: RawTool, context: ToolContext): string | undefined {
  try {
    const within = (value: unknown, limit: number) => value === undefined || value === null || (typeof value === 'string' && value.length <= limit);
    if (!within(name, toolLimits.nameLength) || !within(title, toolLimits.titleLength) || !within(description, toolLimits.descriptionLength)) return undefined;
    const schemaText = (schema: unknown) => (typeof schema === 'object' && schema !== null ? plainJson(schema) : schema);
    const [input, output] = [schemaText(inputSchema), schemaText(outputSchema)];
    if (!within(input, toolLimits.schemaCharacters) || !within(output, toolLimits.schemaCharacters)) return undefined;
    const hints = annotations === undefined || annotations === null ? annotations : plainJson(annotations);
    if (!within(hints, toolLimits.schemaCharacters)) return undefined;
    // A schema given as text and the same given as an object are told apart; the notes, as many as there are, come last.
    const fields = [context.source, context.origin, context.lang, name, title, description, typeof inputSchema, input, typeof outputSchema, output, context.outputSchemaProblem, hints, ...(context.formNotes ?? [])];
    // Each field with its length, so that no two different tools join into the same key.
    return fields.map((field) => (typeof field === 'string' ? `${field.length}:${field}` : `-${String(field)}`)).join('|');
  } catch {
    return undefined;
  }
}

/** `value` as JSON where it is plain JSON of at most `toolLimits.schemaValues` values, as the check takes; throws otherwise. */
function plainJson(value: object): string {
  let values = 0;
  return JSON.stringify(value, function (this: unknown, key: string, written: unknown) {
    // The value before its `toJSON` (a Date has one): the check refuses what is not plain.
    const original = key === '' ? value : (this as Record<string, unknown>)[key];
    if (++values > toolLimits.schemaValues) throw new Error('too many values');
    if (typeof original === 'number' && !Number.isFinite(original)) throw new Error('not finite');
    if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
      const prototype = Object.getPrototypeOf(original);
      if (prototype !== Object.prototype && prototype !== null) throw new Error('not plain');
    }
    if (typeof original === 'function' || typeof original === 'symbol' || typeof original === 'bigint' || original === undefined) throw new Error('not JSON');
    return written;
  });
}
