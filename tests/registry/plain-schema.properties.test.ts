import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactSchema, validateArgs } from '@webmcp-agents/local-agent';
import { plainSchema } from '@/lib/registry/plain-schema';
import { toolsForAgent } from '@/lib/registry/tools-for-agent';
import type { PageTool } from '@/lib/registry/types';
import { deepRefusal, Reference } from './support/reference-validator';
import { argsArbitrary, argsFromSchema, junkSchema, rootSchema } from './support/schema-arbitraries';

// One case checks some forty calls against a reference validator: 50,000 take about 90 s here.
const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 1_000, 200_000);
const timeout = 60_000 + runs * 5;

/** What the agent checks a call against: the schema `toolsForAgent` gives, compacted as the prompt shows it. */
function agentSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const tool: PageTool = { name: 't', description: 'Do it.', inputSchema: schema, origin: 'https://a.example', frameId: 0, source: 'native' };
  const [forAgent] = toolsForAgent({ tabId: 1, origin: tool.origin, url: `${tool.origin}/`, tools: [tool], dropped: [], updatedAt: 0 }).tools;
  return compactSchema(forAgent!.inputSchema);
}

/**
 * validateArgs refuses "" for a required key on purpose (a small model fills what it knows nothing
 * about with ""). Such a refusal is plainSchema's fault only if the page would take the call
 * without that key at all.
 */
function isEmptyStringPolicy(problem: string, schema: unknown, args: Record<string, unknown>): boolean {
  const match = /^Missing required argument "(.*)"\.$/.exec(problem);
  if (!match) return false;
  const name = JSON.parse(`"${match[1]}"`) as string;
  if (args[name] !== '') return false;
  const { [name]: _gone, ...without } = args;
  const reference = new Reference(schema);
  return !reference.accepts(without) && !reference.illFounded;
}

/** The generated arguments, and forty more drawn from the values the schema itself names. */
const calls = (schema: unknown, given: Record<string, unknown>, choices: number[]) => [given, ...argsFromSchema(schema, choices, 40)];
const choices = fc.array(fc.nat(), { minLength: 400, maxLength: 400 });

/** Whether the reference validator takes `args` against `schema` (a schema that recurses without end takes nothing). */
function pageTakes(schema: unknown, args: Record<string, unknown>): boolean {
  const reference = new Reference(schema);
  return reference.accepts(args) && !reference.illFounded;
}

describe('plainSchema against a reference JSON Schema validator', () => {
  it('never makes the agent refuse a call the page’s schema takes', () => {
    let taken = 0;
    fc.assert(
      fc.property(rootSchema, argsArbitrary, choices, (schema, given, drawn) => {
        const plain = plainSchema(schema) as Record<string, unknown>;
        const agent = agentSchema(schema as Record<string, unknown>);
        for (const args of calls(schema, given, drawn)) {
          if (!pageTakes(schema, args)) continue;
          taken += 1;
          for (const checked of [plain, agent]) {
            const problem = validateArgs(checked, args);
            if (problem !== null && !isEmptyStringPolicy(problem, schema, args)) {
              throw new Error(`refused ${JSON.stringify(args)}: ${problem}\nchecked against: ${JSON.stringify(checked)}`);
            }
          }
        }
      }),
      { numRuns: runs },
    );
    // The generators must reach calls the page takes, or the property says nothing.
    expect(taken).toBeGreaterThan(runs);
  }, timeout);

  it('never tells the model, at any depth, a constraint the page’s schema does not have', () => {
    fc.assert(
      fc.property(rootSchema, argsArbitrary, choices, (schema, given, drawn) => {
        const compact = compactSchema(plainSchema(schema) as Record<string, unknown>);
        for (const args of calls(schema, given, drawn)) {
          if (!pageTakes(schema, args)) continue;
          const refusal = deepRefusal(compact, args);
          if (refusal !== null && !(refusal.startsWith('$: required') && isEmptyStringPolicy(`Missing required argument ${refusal.slice(12)}.`, schema, args))) {
            throw new Error(`the model is told ${refusal} for ${JSON.stringify(args)}\ncompact: ${JSON.stringify(compact)}`);
          }
        }
      }),
      { numRuns: runs },
    );
  }, timeout);

  it('never throws on schema-shaped junk', () => {
    fc.assert(
      fc.property(junkSchema, argsArbitrary, (schema, args) => {
        const plain = plainSchema(schema);
        agentSchema(schema as Record<string, unknown>);
        validateArgs(plain as Record<string, unknown>, args);
        compactSchema(plain as Record<string, unknown>);
      }),
      { numRuns: runs },
    );
  }, timeout);
});
