import { toolOutputLength, type ToolOutput } from '@webmcp-agents/chat';
import { plainSchema } from '../registry/plain-schema';
import type { PageTool } from '../registry/types';
import { firstType } from './json-template';
import { schemaProblems } from './schema-problems';

/** What a run's result says against its tool's output schema. */
export interface ResultCheck {
  matches: boolean;
  message: string;
}

/** The most problems one check names. */
const shownProblems = 3;

/**
 * A finished run's result against the tool's output schema: an MCP-style result's
 * `structuredContent` where it has one, else the result text read as JSON, checked at every level
 * (`schemaProblems`) against the schema as the agent would read it (`plainSchema`: references
 * written out, unions merged). Undefined where there is nothing to check: no output schema, or
 * one that is not an object's (the lint says so), an error, or no result at all (the page went).
 * `structuredContentDropped`: the result had a `structuredContent`, left out as too long to carry.
 */
export function checkToolResult(
  tool: Pick<PageTool, 'name' | 'outputSchema'>,
  output: ToolOutput,
  structuredContent?: unknown,
  structuredContentDropped = false,
): ResultCheck | undefined {
  const schema = tool.outputSchema;
  if (!schema || firstType(schema) !== 'object' || output.isError || output.noAnswer) return undefined;
  // A result past the transport's cap came cut: its JSON cannot be read whole, so it is not judged.
  if (structuredContent === undefined && (structuredContentDropped || toolOutputLength(output) > output.text.length)) {
    return { matches: false, message: "The result was too long to carry whole, so it was not checked against the tool's output schema." };
  }
  const given = structuredContent === undefined ? readJson(output.text) : { value: structuredContent };
  if (!given) return { matches: false, message: "The result is not JSON and has no structuredContent, so it cannot match the tool's output schema." };
  const what = structuredContent === undefined ? 'The result' : "The result's structuredContent";
  const problems = schemaProblems(plainSchema(schema), given.value, shownProblems);
  if (problems.length === 0) return { matches: true, message: `${what} matches the tool's output schema.` };
  return { matches: false, message: `${what} does not match the tool's output schema: ${problems.join('; ')}.` };
}

function readJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
