import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyToolForPosting } from '@/lib/webmcp/bridge/copy-tool-for-posting';
import { droppedToolSchema, reportedToolSchema, type ReportedTool } from '@/lib/webmcp/reported-tool';
import { sanitizeTool } from '@/lib/webmcp/sanitize-tool';
import { CheckedToolCache } from '@/lib/webmcp/checked-tool-cache';
import { sanitizeTools } from '@/lib/webmcp/sanitize-tools';
import { toolLimits, toolNamePattern } from '@/lib/webmcp/tool-limits';

// Cases per property: 10^4 by default; `npm run fuzz` asks for 10^6.
const runs = Number(process.env['FUZZ_RUNS']) || 10_000;
const timeout = 10_000 + runs * 2;
const parameters = { numRuns: runs };
const context = { origin: 'https://shop.example', source: 'polyfill' as const };

/** Keys a page's objects tend to have, and keys that trip careless code. */
const key = fc.oneof(
  fc.constantFrom('name', 'description', 'type', 'properties', 'required', 'items', 'readOnlyHint', '__proto__', 'constructor', 'toJSON'),
  fc.string({ maxLength: 6 }),
);

type HostileKind = (typeof hostileKinds)[number];
const hostileKinds = ['throwing getter', 'proxy that throws', 'revoked proxy', 'cycle', 'class instance', 'deep nesting', 'many values', 'claimed length'] as const;
const hostileKind = fc.constantFrom(...hostileKinds);

/**
 * A hostile object, as a recipe: fast-check looks into the values it generates, and a revoked
 * proxy would break fast-check itself. `build` makes the real thing inside the property.
 */
class Hostile {
  constructor(
    readonly kind: HostileKind,
    readonly base: Record<string, unknown>,
    readonly trap: string,
  ) {}
}
const hostile = (base: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(hostileKind, base, key).map(([kind, value, trap]) => new Hostile(kind, value, trap));

/** What a page's script can build and hand over, hostile objects included (as recipes). */
const pageValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'page', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.anything({ maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true, withNullPrototype: true }),
    fc.constantFrom<unknown>(Number.NaN, Infinity, -0, undefined, Symbol('page'), () => 'function', 10n),
    fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'page' }),
    fc.dictionary(key, tie('value'), { maxKeys: 5, depthIdentifier: 'page' }),
    hostile(fc.dictionary(key, tie('value'), { maxKeys: 4, depthIdentifier: 'page' })),
  ),
})).value;

/** The page's value from a generated one: recipes become hostile objects, fresh at every run. */
function build(value: unknown): unknown {
  if (value instanceof Hostile) return makeHostile(build(value.base) as Record<string, unknown>, value.trap, value.kind);
  if (Array.isArray(value)) return value.map(build);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) Object.defineProperty(copy, name, { value: build(item), enumerable: true, writable: true, configurable: true });
  return copy;
}

function makeHostile(base: Record<string, unknown>, trap: string, kind: HostileKind): unknown {
  const thrower = () => {
    throw new Error('the page says no');
  };
  switch (kind) {
    case 'throwing getter':
      return Object.defineProperty(base, trap, { get: thrower, enumerable: true, configurable: true });
    case 'proxy that throws':
      return new Proxy(base, { get: thrower, has: thrower, ownKeys: thrower, getPrototypeOf: thrower, getOwnPropertyDescriptor: thrower });
    case 'revoked proxy': {
      const { proxy, revoke } = Proxy.revocable(base, {});
      revoke();
      return proxy;
    }
    case 'cycle':
      return Object.defineProperty(base, trap, { value: base, enumerable: true, configurable: true });
    case 'class instance':
      return Object.defineProperties(new (class PageThing {})(), Object.getOwnPropertyDescriptors(base));
    case 'deep nesting':
      return Array.from({ length: 40 }).reduce((inner) => ({ [trap]: inner }), base);
    case 'many values':
      return { ...base, [trap]: new Array<number>(25_000).fill(7) };
    case 'claimed length': {
      // Fifty million items claimed, one there.
      const sparse: unknown[] = [];
      sparse.length = 50_000_000;
      sparse[7] = base;
      return sparse;
    }
  }
}

/** Text near the limits: names around 128 characters, descriptions around 10,000. */
const sizedText = (limit: number) => fc.nat({ max: limit + 8 }).map((length) => 'd'.repeat(length));
const nameLike = fc.oneof(fc.stringMatching(toolNamePattern), fc.string({ maxLength: 20 }), sizedText(toolLimits.nameLength), pageValue);
const textLike = (limit: number) => fc.oneof(fc.string({ maxLength: 30, unit: 'binary' }), sizedText(limit), pageValue);
const schemaLike = fc.oneof(
  fc.dictionary(fc.constantFrom('type', 'properties', 'required', 'description'), pageValue, { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ type: 'object', properties: { value } })),
  sizedText(toolLimits.schemaCharacters).map((text) => ({ type: 'object', description: text })),
  pageValue,
);
const annotationsLike = fc.oneof(
  fc.record({ readOnlyHint: pageValue, consequentialHint: fc.boolean(), untrustedContentHint: fc.boolean(), destructiveHint: fc.boolean() }, { requiredKeys: [] }),
  pageValue,
);

/** A tool as a page offers it: mostly tool-shaped, sometimes hostile itself, sometimes anything. */
const pageTool = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { name: nameLike, title: textLike(toolLimits.titleLength), description: textLike(toolLimits.descriptionLength), inputSchema: schemaLike, outputSchema: schemaLike, annotations: annotationsLike },
      { requiredKeys: ['name', 'description'] },
    ),
  },
  { weight: 1, arbitrary: hostile(fc.record({ name: nameLike, description: textLike(100) })) },
  { weight: 1, arbitrary: pageValue },
);

/** Only null, booleans, finite numbers, strings, plain arrays and plain objects with plain data properties. */
function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== (Array.isArray(value) ? Array.prototype : Object.prototype)) return false;
  const keys = Reflect.ownKeys(value).filter((name) => !(Array.isArray(value) && name === 'length'));
  if (Array.isArray(value) && keys.length !== value.length) return false;
  return keys.every((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    return typeof name === 'string' && descriptor !== undefined && 'value' in descriptor && descriptor.enumerable === true && isPlainJson(descriptor.value, depth + 1);
  });
}

/** The rules a taken tool breaks; plain checks, as a million cases would spend most of their time in assertions. */
function brokenRules(tool: ReportedTool): string[] {
  const rules: Array<[string, boolean]> = [
    ['the name rule', toolNamePattern.test(tool.name)],
    ['a description', tool.description.trim() !== '' && tool.description.length <= toolLimits.descriptionLength],
    ['the title cap', (tool.title?.length ?? 0) <= toolLimits.titleLength],
    ['the schema cap', JSON.stringify(tool.inputSchema).length <= toolLimits.schemaCharacters],
    ['the output schema cap', JSON.stringify(tool.outputSchema ?? {}).length <= toolLimits.schemaCharacters],
    ['boolean hints', Object.values(tool.annotations ?? {}).every((hint) => typeof hint === 'boolean')],
    ['the wire schema', reportedToolSchema().safeParse(tool).success],
    ['plain JSON', isPlainJson(tool)],
  ];
  return rules.filter(([, kept]) => !kept).map(([rule]) => rule);
}

function expectWithinCaps(tool: ReportedTool): void {
  const broken = brokenRules(tool);
  if (broken.length > 0) expect({ tool, broken }).toEqual({ tool, broken: [] });
}

function expectPlainJson(value: unknown): void {
  if (!isPlainJson(value)) expect(value).toBe('plain JSON');
}

describe('the page-data sanitiser on arbitrary page data', () => {
  it('sanitizeTool never throws: a tool it takes is capped, well named and plain JSON; a refusal says why in a line', { timeout }, () => {
    fc.assert(
      fc.property(pageTool, (generated) => {
        const result = sanitizeTool(build(generated), context);
        if (result.ok) expectWithinCaps(result.tool);
        else if (!droppedToolSchema().safeParse({ name: result.name, reason: result.reason }).success) expect(result).toBe('a short refusal');
      }),
      parameters,
    );
  });

  it('sanitizeTools never throws: at most 500 tools, names unique, the whole list within its size', { timeout }, () => {
    const offered = fc.array(fc.record({ tool: pageTool, source: fc.constantFrom('native' as const, 'polyfill' as const, 'declarative' as const) }), { maxLength: 8 });
    // Now and then a list past the cap: the same tools over and over.
    const repeats = fc.oneof({ weight: 49, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 60, max: 700 }) });
    fc.assert(
      fc.property(offered, repeats, (tools, copies) => {
        const built = tools.map(({ tool, source }) => ({ tool: build(tool), source }));
        const list = copies > 0 && built.length > 0 ? Array.from({ length: copies * built.length }, (_, index) => built[index % built.length]!) : built;
        const { tools: taken, dropped } = sanitizeTools(list, context.origin);
        expect(taken.length).toBeLessThanOrEqual(toolLimits.toolsPerFrame);
        expect(new Set(taken.map((tool) => tool.name)).size).toBe(taken.length);
        expect(JSON.stringify(taken).length).toBeLessThanOrEqual(toolLimits.reportCharacters + taken.length + 2);
        expect(dropped.length).toBeLessThanOrEqual(toolLimits.toolsPerFrame + 2);
        for (const entry of dropped) if (!droppedToolSchema().safeParse(entry).success) expect(entry).toBe('a short refusal');
        for (const tool of taken) expectPlainJson(tool);
      }),
      { numRuns: Math.ceil(runs / 10) },
    );
  });

  it('sanitizeTools with a cache of checked tools says what it says without, the first time and the next', { timeout }, () => {
    const offered = fc.array(fc.record({ tool: pageTool, source: fc.constantFrom('native' as const, 'polyfill' as const, 'declarative' as const) }), { maxLength: 8 });
    fc.assert(
      fc.property(offered, (tools) => {
        const list = tools.map(({ tool, source }) => ({ tool: build(tool), source }));
        const expected = JSON.stringify(sanitizeTools(list, context.origin));
        const cache = new CheckedToolCache(toolLimits.toolsPerFrame * 2);
        expect(JSON.stringify(sanitizeTools(list, context.origin, cache))).toBe(expected);
        // The tools again, as fresh objects, as the next reading of the page hands them over.
        const again = tools.map(({ tool, source }) => ({ tool: build(tool), source }));
        expect(JSON.stringify(sanitizeTools(again, context.origin, cache))).toBe(expected);
      }),
      { numRuns: Math.ceil(runs / 10) },
    );
  });

  it('the page-world bridge copies any tool into plain data, or refuses it, without throwing; the content script then checks it', { timeout }, () => {
    fc.assert(
      fc.property(pageTool, (generated) => {
        const posted = copyToolForPosting(build(generated));
        if (!posted.ok) {
          if (typeof posted.reason !== 'string') expect(posted).toBe('a refusal with a reason');
          // An output schema it cannot copy is left out, never the tool.
          if (posted.reason.startsWith('the output schema')) expect(posted).toBe('a tool kept without its output schema');
          return;
        }
        expectPlainJson(posted.tool);
        // What crosses postMessage is a structured clone of the copy.
        const result = sanitizeTool(structuredClone(posted.tool), context);
        if (result.ok) expectWithinCaps(result.tool);
      }),
      parameters,
    );
  });

  it('found by these properties: holes in an array become null, as in JSON, and a revoked proxy is refused, not thrown', () => {
    const sparse = sanitizeTool({ name: 'a', description: 'd', inputSchema: { type: 'object', enum: [1, , 3] } }, context);
    expect(sparse.ok && sparse.tool.inputSchema).toEqual({ type: 'object', enum: [1, null, 3] });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(sanitizeTool({ name: 'a', description: 'd', inputSchema: proxy }, context)).toEqual({ ok: false, name: 'a', reason: 'the input schema cannot be read' });
  });
});
