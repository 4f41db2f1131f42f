import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { compactSchema, rankTools, validateArgs } from '@webmcp-agents/local-agent';

// Cases per property: 10^4 by default; `npm run fuzz` asks for 10^6.
const runs = Number(process.env['FUZZ_RUNS']) || 10_000;
const timeout = 10_000 + runs * 2;
const parameters = { numRuns: runs };

const keptKeywords = ['type', 'properties', 'required', 'enum', 'minimum', 'maximum', 'items', 'description'];

/** Schema-shaped JSON: the keywords these helpers read, with values of any shape, nested. */
const schemaLike = fc.letrec((tie) => ({
  schema: fc.dictionary(fc.constantFrom(...keptKeywords, 'format', '__proto__'), tie('value'), {
    maxKeys: 4,
    depthIdentifier: 'schema',
  }),
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'schema' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null'),
    fc.array(fc.constantFrom('string', 'null', 'integer', 7), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('schema'), { maxKeys: 3, depthIdentifier: 'schema' }),
    tie('schema'),
  ),
})).schema;

const anySchema = fc.oneof(fc.jsonValue({ maxDepth: 4 }), schemaLike);

/** Arguments that are often objects whose keys meet the schema's property names. */
const anyArgs = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom('a', 'b', 'qty', 'size', '', '__proto__'), fc.jsonValue({ maxDepth: 2 })),
);

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('schema helpers on arbitrary JSON', () => {
  it('compactSchema never throws, returns an object of kept keywords, and is idempotent', () => {
    fc.assert(
      // Plain boolean checks: `expect` inside 10^4 cases would dominate the run time.
      fc.property(anySchema, (schema) => {
        const compacted = compactSchema(schema as never);
        return (
          isPlainObject(compacted) &&
          Object.keys(compacted).every((key) => keptKeywords.includes(key)) &&
          (typeof compacted.description !== 'string' || compacted.description.length <= 160) &&
          isDeepStrictEqual(compactSchema(compacted), compacted)
        );
      }),
      parameters,
    );
  }, timeout);

  it('validateArgs never throws and returns null or one sentence', () => {
    fc.assert(
      fc.property(anySchema, anyArgs, (schema, args) => {
        return [schema, compactSchema(schema as never)].every((checked) => {
          const problem = validateArgs(checked as never, args);
          return problem === null || (typeof problem === 'string' && problem.endsWith('.'));
        });
      }),
      parameters,
    );
  }, timeout);

  it('rankTools never throws and returns at most max tools', () => {
    const anyTool = fc.record({
      name: fc.string({ maxLength: 20 }),
      description: fc.oneof(fc.string({ maxLength: 500 }), fc.jsonValue({ maxDepth: 1 })),
      inputSchema: anySchema,
    });
    fc.assert(
      fc.property(fc.array(anyTool, { maxLength: 12 }), fc.string(), fc.integer({ min: -2, max: 12 }), (tools, query, max) => {
        const shown = rankTools(tools as ToolDescriptor[], query, { max });
        return (
          shown.length === Math.min(tools.length, Math.max(0, max)) &&
          shown.every((tool) => tool.description.length <= 400)
        );
      }),
      { numRuns: Math.ceil(runs / 10) },
    );
  }, timeout);
});
