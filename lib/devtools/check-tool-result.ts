import { isRecord, toolOutputLength, type JSONSchema, type ToolOutput } from '@webmcp-agents/chat';
import { validateArgs } from '@webmcp-agents/local-agent';
import { plainSchema } from '../registry/plain-schema';
import { noResultAsPageChanged } from '../registry/tool-output-from-result';
import type { PageTool } from '../registry/types';
import { fieldNamedIn } from './form-values-to-args';
import { firstType } from './json-template';

/** What a run's result says against its tool's output schema. */
export interface ResultCheck {
  matches: boolean;
  message: string;
}

/** The most problems one check names. */
const shownProblems = 3;

/**
 * A finished run's result against the tool's output schema: an MCP-style result's
 * `structuredContent` where it has one, else the result text read as JSON. The check is the
 * agent's own check of arguments (`validateArgs`, on the schema as the agent would read it, see
 * `plainSchema`): what is required, and each property's type, choices and bounds, at the top
 * level. Undefined where there is nothing to check: no output schema, or one that is not an
 * object's (the lint says so), an error, or no result at all (the page went).
 */
export function checkToolResult(tool: Pick<PageTool, 'name' | 'outputSchema'>, output: ToolOutput, structuredContent?: unknown): ResultCheck | undefined {
  const schema = tool.outputSchema;
  if (!schema || firstType(schema) !== 'object' || output.isError || output.text === noResultAsPageChanged(tool.name)) return undefined;
  // A result past the transport's cap came cut: its JSON cannot be read whole, so it is not judged.
  if (structuredContent === undefined && toolOutputLength(output) > output.text.length) {
    return { matches: false, message: "The result was too long to carry whole, so it was not checked against the tool's output schema." };
  }
  const given = structuredContent === undefined ? readJson(output.text) : { value: structuredContent };
  if (!given) return { matches: false, message: "The result is not JSON and has no structuredContent, so it cannot match the tool's output schema." };
  const what = structuredContent === undefined ? 'The result' : "The result's structuredContent";
  const plain = plainSchema(schema);
  const problems = resultProblems(isRecord(plain) ? plain : schema, given.value);
  if (problems.length === 0) return { matches: true, message: `${what} matches the tool's output schema.` };
  return { matches: false, message: `${what} does not match the tool's output schema: ${problems.join('; ')}.` };
}

/** The first few problems: after each, the property it names is left out and the rest checked again. */
function resultProblems(schema: JSONSchema, value: unknown): string[] {
  // validateArgs counts "" as missing (a small model fills a required argument it knows nothing
  // of with it), but a result may well hold an empty string.
  const given = (name: unknown) => !(isRecord(value) && typeof name === 'string' && value[name] === '');
  let rest = Array.isArray(schema.required) ? { ...schema, required: schema.required.filter(given) } : schema;
  const problems: string[] = [];
  while (problems.length < shownProblems) {
    const problem = validateArgs(rest, value);
    if (problem === null) break;
    problems.push(inResultWords(problem));
    const name = fieldNamedIn(problem, propertyNames(rest));
    if (name === undefined) break;
    rest = without(rest, name);
  }
  return problems;
}

/** validateArgs speaks to a model of its arguments; of a result, the same problems read so. */
function inResultWords(problem: string): string {
  return problem
    .replace(/^Missing required argument (.+)\.$/s, '$1 is missing')
    .replace(/^Arguments must be a JSON object, got (.+)\.$/s, 'it is $1, not a JSON object')
    .replace(/\.$/, '');
}

function propertyNames(schema: JSONSchema): Array<{ name: string }> {
  const names = [...(isRecord(schema.properties) ? Object.keys(schema.properties) : []), ...(Array.isArray(schema.required) ? schema.required : [])];
  return names.filter((name): name is string => typeof name === 'string').map((name) => ({ name }));
}

function without(schema: JSONSchema, name: string): JSONSchema {
  const properties = isRecord(schema.properties) ? Object.fromEntries(Object.entries(schema.properties).filter(([key]) => key !== name)) : schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => key !== name) : schema.required;
  return { ...schema, properties, required };
}

function readJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
