import { isRecord } from '@webmcp-agents/chat';
import { compactSchema, toolDescriptionLimit } from '@webmcp-agents/local-agent';
import { plainKeywords, valuesOverType } from '../registry/plain-keywords';
import { plainSchema } from '../registry/plain-schema';
import type { PageTool } from '../registry/types';
import { holdsUnseenCharacters } from '../text/hidden-characters';
import { firstType } from './json-template';
import { schemaShapeProblems } from './schema-shape-problems';

/** A problem the inspector points out in a tool: a site author's to-do, not a reason to drop it. */
export interface LintFinding {
  name: string;
  frameId: number;
  level: 'warning' | 'info';
  message: string;
}

/** Chrome's guidance for tools a model reads well. */
const lintBudgets = { name: 30, description: 500, parameterDescription: 150, shortDescription: 20 } as const;

/** Phrases that speak to the model instead of describing the tool. */
const instructionPatterns = [
  /\b(ignore|disregard|forget|override)\b[^.]{0,40}\b(previous|prior|above|earlier|other|all|your)\b[^.]{0,20}\b(instructions?|prompts?|rules|messages?)\b/i,
  /\bsystem prompt\b/i,
  /\byou are now\b/i,
  /\bnew instructions?\b/i,
  /\b(do not|don't|never) (tell|inform|ask|show) the user\b/i,
  /\bwithout (asking|telling|confirming with) the user\b/i,
  /<\/?\s*(system|instructions?|im_start|im_end)\b/i,
];

type Finding = Pick<LintFinding, 'level' | 'message'>;
const warning = (message: string): Finding => ({ level: 'warning', message });
const info = (message: string): Finding => ({ level: 'info', message });

/** Every finding for a tab's tools, in tool order. */
export function lintTools(tools: readonly PageTool[]): LintFinding[] {
  const frameCounts = new Map<string, Set<number>>();
  for (const tool of tools) frameCounts.set(tool.name, (frameCounts.get(tool.name) ?? new Set()).add(tool.frameId));
  return tools.flatMap((tool) => {
    const findings = lintTool(tool);
    if ((frameCounts.get(tool.name)?.size ?? 0) > 1) {
      findings.push(warning('Another frame offers a tool with the same name; an agent cannot tell them apart.'));
    }
    return findings.map((finding) => ({ name: tool.name, frameId: tool.frameId, ...finding }));
  });
}

function lintTool(tool: PageTool): Finding[] {
  const findings: Finding[] = [];
  if (tool.name.length > lintBudgets.name) {
    findings.push(warning(`The name is ${tool.name.length} characters; Chrome suggests at most ${lintBudgets.name}.`));
  }
  const description = tool.description.trim();
  if (description.length < lintBudgets.shortDescription) {
    findings.push(warning('The description is very short: say what the tool does and when to use it.'));
  }
  if (tool.description.length > lintBudgets.description) {
    findings.push(warning(`The description is ${tool.description.length} characters; Chrome suggests at most ${lintBudgets.description}.`));
  }
  if (tool.description.length > toolDescriptionLimit) {
    findings.push(info(`This agent shows its model the first ${toolDescriptionLimit} characters of the description: say what matters first.`));
  }
  if (firstType(tool.inputSchema) !== 'object') {
    findings.push(warning('The input schema is not an object schema ("type": "object").'));
  }
  findings.push(...schemaShapeProblems(tool.inputSchema).map(warning));
  findings.push(...outputSchemaFindings(tool));
  for (const note of tool.formNotes ?? []) findings.push(warning(note));
  if (tool.annotations?.destructiveHint) {
    findings.push(
      warning('"destructiveHint" is MCP\'s name: WebMCP\'s is "consequentialHint". This extension asks before each call either way; a browser\'s own agent may not.'),
    );
  }
  if (tool.title) findings.push(...textFindings('The title', tool.title));
  findings.push(...textFindings('The description', tool.description));
  findings.push(...parameterFindings(tool.inputSchema));
  return findings;
}

/** The output schema's mistakes; an agent never reads it, but the inspector checks results against it. */
function outputSchemaFindings({ outputSchema, outputSchemaProblem }: PageTool): Finding[] {
  if (outputSchemaProblem !== undefined) return [warning(`The output schema is left out, so results are not checked against it: ${outputSchemaProblem}.`)];
  if (outputSchema === undefined) return [];
  const findings = schemaShapeProblems(outputSchema, 'output').map(warning);
  if (firstType(outputSchema) !== 'object') {
    findings.unshift(warning('The output schema is not an object schema ("type": "object"), as MCP asks of structured results: results are not checked against it.'));
  }
  return findings;
}

function parameterFindings(schema: Record<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  const properties = isRecord(schema.properties) ? schema.properties : {};
  // What the model reads, with references written out and allOf merged (see plainSchema).
  const plain = plainSchema(schema);
  const forModel = isRecord(plain) && isRecord(plain.properties) ? plain.properties : {};
  for (const name of isRecord(plain) && Array.isArray(plain.required) ? plain.required : []) {
    if (typeof name === 'string' && !Object.hasOwn(forModel, name)) {
      findings.push(warning(`"${name}" is required but is not one of the properties: the model is not told what to give, and a call without it is refused.`));
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    const unread = unreadKeywords(property, forModel[name]);
    if (unread.length > 0) {
      findings.push(warning(`The model is told nothing of what "${name}" must be: it is not shown ${unread.map((key) => `"${key}"`).join(', ')}. Say it in the description.`));
    }
    const contradiction = isRecord(property) ? contradictoryValues(name, property) : undefined;
    if (contradiction) findings.push(warning(contradiction));
    const description = isRecord(property) && typeof property.description === 'string' ? property.description : '';
    if (description === '') findings.push(info(`The parameter "${name}" has no description.`));
    if (description.length > lintBudgets.parameterDescription) {
      findings.push(warning(`The description of "${name}" is ${description.length} characters; Chrome suggests at most ${lintBudgets.parameterDescription}.`));
    }
    findings.push(...textFindings(`The description of "${name}"`, description));
  }
  return findings;
}

/** Where a property's `enum` lists no value of its `type` (see valuesOverType): what no value meets, and how the agent reads it. */
function contradictoryValues(name: string, property: Record<string, unknown>): string | undefined {
  // A `const` is a one-value enum, and a nullable field's null agrees with anything (see plainKeywords).
  const plain = plainKeywords(property, false);
  const read = valuesOverType(plain);
  if (read === plain) return undefined;
  const type = JSON.stringify(property.type);
  const how = read.type === undefined ? 'The agent reads it by its values; give it the type they have.' : 'The agent reads them as the values of its items; put the "enum" in "items".';
  return `"${name}" is of type ${type}, but none of the values it lists is: no value can meet it. ${how}`;
}

/** The keywords of a property that say something, where what the model reads of it says nothing. */
function unreadKeywords(given: unknown, forModel: unknown): string[] {
  const shown = Object.keys(compactSchema(isRecord(forModel) ? forModel : {})).filter((key) => key !== 'description');
  if (!isRecord(given) || shown.length > 0) return [];
  return Object.keys(given).filter((key) => key !== 'title' && key !== 'description' && key !== '$comment');
}

function textFindings(what: string, text: string): Finding[] {
  const findings: Finding[] = [];
  if (instructionPatterns.some((pattern) => pattern.test(text))) {
    findings.push(warning(`${what} speaks to the model ("ignore previous instructions" and the like).`));
  }
  // Zero-width and direction-changing characters hide text from a person reading the tool, and tag
  // characters spell words only a model reads: the same characters the panels mark.
  if (holdsUnseenCharacters(text)) findings.push(warning(`${what} holds invisible characters.`));
  return findings;
}
