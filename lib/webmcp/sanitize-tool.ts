import { copyJsonValue } from './copy-json-value';
import { readToolFields, unreadableSchema, type RawTool } from './read-tool-fields';
import { reportedToolSchema, type ReportedTool, type ToolSource } from './reported-tool';
import { toolLimits, toolNamePattern } from './tool-limits';

export type SanitizeResult = { ok: true; tool: ReportedTool } | { ok: false; name: string; reason: string };

/** What a frame knows about where its tools live. */
export interface ToolContext {
  origin: string;
  source: ToolSource;
  /** The extension's notes on a tool form's fields (not the page's words about itself). */
  formNotes?: readonly string[];
  /** Why the page-world bridge could not copy the tool's output schema (see copyToolForPosting). */
  outputSchemaProblem?: string;
  /** The frame's document's language (see documentLanguage). */
  lang?: string;
}

const emptyObjectSchema = { type: 'object', properties: {} };
const hintNames = ['readOnlyHint', 'consequentialHint', 'untrustedContentHint', 'consequenceUnknown'] as const;

/**
 * Copies one tool a page offers into plain, capped data, or says why it is refused.
 * Never throws, whatever the page put in `tool`.
 */
export function sanitizeTool(tool: unknown, context: ToolContext): SanitizeResult {
  return sanitizeToolFields(readToolFields(tool), context);
}

/** `sanitizeTool` of a tool whose fields were read already (see readToolFields). */
export function sanitizeToolFields(raw: RawTool, context: ToolContext): SanitizeResult {
  const refuse = (reason: string): SanitizeResult => ({ ok: false, name: displayName(raw.name), reason });
  const problem = textProblem(raw);
  if (problem) return refuse(problem);
  // No schema means no arguments.
  const schema = isAbsent(raw.inputSchema) ? { ok: true as const, value: { ...emptyObjectSchema } } : sanitizeSchema(raw.inputSchema, 'the input schema');
  if (!schema.ok) return refuse(schema.reason);
  const annotations = sanitizeAnnotations(raw.annotations);
  const copy = {
    name: raw.name,
    ...(typeof raw.title === 'string' && raw.title !== '' ? { title: raw.title } : {}),
    description: raw.description,
    inputSchema: schema.value,
    ...outputSchemaOf(raw.outputSchema, context.outputSchemaProblem),
    ...(annotations ? { annotations } : {}),
    origin: context.origin.slice(0, 2_048),
    source: context.source,
    ...(context.formNotes?.length ? { formNotes: context.formNotes.slice(0, 5).map((note) => note.slice(0, 300)) } : {}),
    ...(context.lang ? { lang: context.lang } : {}),
  };
  // The wire schema has the last word: what passes here is what the background accepts.
  const checked = reportedToolSchema().safeParse(copy);
  if (!checked.success) return refuse(`the tool does not fit the tool schema (${checked.error.issues[0]?.path.join('.') || 'tool'})`);
  return { ok: true, tool: checked.data };
}

/** Why the name, description or title cannot be taken, if they cannot. */
function textProblem({ name, description, title }: RawTool): string | undefined {
  if (typeof name !== 'string' || name === '') return 'the name is missing or not text';
  if (!toolNamePattern.test(name)) return 'the name must be 1–128 characters of A–Z, a–z, 0–9, "_", "." or "-"';
  if (typeof description !== 'string' || description.trim() === '') return 'the description is missing or empty';
  if (description.length > toolLimits.descriptionLength) {
    return overLimit('the description', description.length, toolLimits.descriptionLength);
  }
  if (title !== undefined && title !== null && typeof title !== 'string') return 'the title is not text';
  if (typeof title === 'string' && title.length > toolLimits.titleLength) {
    return overLimit('the title', title.length, toolLimits.titleLength);
  }
  return undefined;
}

type SchemaResult = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

const isAbsent = (schema: unknown): boolean => schema === undefined || schema === null || schema === '';

/**
 * The output schema, read and capped like the input schema. It only describes results (the
 * inspector checks them against it; the agent never reads it), so one that cannot be used leaves
 * the tool without it, with the reason the inspector shows, instead of refusing the tool.
 */
function outputSchemaOf(outputSchema: unknown, bridgeProblem: string | undefined): Pick<ReportedTool, 'outputSchema' | 'outputSchemaProblem'> {
  if (bridgeProblem !== undefined) return { outputSchemaProblem: bridgeProblem.slice(0, 300) };
  if (isAbsent(outputSchema)) return {};
  const schema = sanitizeSchema(outputSchema, 'the output schema');
  return schema.ok ? { outputSchema: schema.value } : { outputSchemaProblem: schema.reason.slice(0, 300) };
}

/** Older Chrome gave the schema as JSON text, newer as an object. `what` names it in a refusal. */
function sanitizeSchema(given: unknown, what: string): SchemaResult {
  if (given === unreadableSchema) return { ok: false, reason: `${what} cannot be read` };
  let candidate = given;
  if (typeof given === 'string') {
    if (given.length > toolLimits.schemaCharacters) {
      return { ok: false, reason: overLimit(what, given.length, toolLimits.schemaCharacters) };
    }
    try {
      candidate = JSON.parse(given);
    } catch {
      return { ok: false, reason: `${what} is text that is not valid JSON` };
    }
  }
  const kind = schemaKind(candidate);
  if (kind === 'unreadable') return { ok: false, reason: `${what} cannot be read` };
  if (kind !== 'an object') return { ok: false, reason: `${what} must be a JSON object, not ${kind}` };
  const copy = copyJsonValue(candidate, { depth: toolLimits.schemaDepth, values: toolLimits.schemaValues });
  if (!copy.ok) return { ok: false, reason: `${what} cannot be used: ${copy.reason}` };
  const characters = JSON.stringify(copy.value).length;
  if (characters > toolLimits.schemaCharacters) {
    return { ok: false, reason: overLimit(what, characters, toolLimits.schemaCharacters) };
  }
  return { ok: true, value: copy.value as Record<string, unknown> };
}

/** What a schema is, in words. A revoked proxy cannot even say whether it is an array. */
function schemaKind(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  try {
    return Array.isArray(value) ? 'an array' : 'an object';
  } catch {
    return 'unreadable';
  }
}

/**
 * Only WebMCP's three hints (and the extension's own `consequenceUnknown`), only real booleans;
 * anything else is left out. MCP's `destructiveHint: true`, which tools ported from MCP servers
 * carry, is kept and read as `consequentialHint`: the tool asks every time. Only a page's own
 * WebMCP script passes it on: Chrome's `getTools()` answers WebMCP's hints alone, so a tool
 * registered with the browser loses it there, for every agent.
 */
function sanitizeAnnotations(annotations: unknown): ReportedTool['annotations'] {
  if (typeof annotations !== 'object' || annotations === null) return undefined;
  const read = (hint: string): unknown => {
    try {
      return (annotations as Record<string, unknown>)[hint];
    } catch {
      return undefined;
    }
  };
  const hints: NonNullable<ReportedTool['annotations']> = {};
  for (const hint of hintNames) {
    const value = read(hint);
    if (typeof value === 'boolean') hints[hint] = value;
  }
  if (read('destructiveHint') === true) Object.assign(hints, { destructiveHint: true, consequentialHint: true });
  return Object.keys(hints).length > 0 ? hints : undefined;
}

/** A refused tool's name as the inspector shows it: text, cut short. */
export function displayName(name: unknown): string {
  if (typeof name !== 'string') return '(no name)';
  if (name === '') return '(empty name)';
  const limit = toolLimits.droppedNameLength;
  return name.length > limit ? `${name.slice(0, limit)}…` : name;
}

function overLimit(what: string, size: number, limit: number): string {
  return `${what} is ${size.toLocaleString('en-US')} characters, over the limit of ${limit.toLocaleString('en-US')}`;
}
