import fc from 'fast-check';

/** A small universe of values, so that enums, consts and arguments meet. */
export const someValue = fc.constantFrom<unknown>(null, true, false, 0, 1, -1, 2.5, 5, 10, 'a', 'b', 'x', '', [], [1], ['a'], {}, { a: 1 }, { a: 'a' }, { b: null });

export const typeName = fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null');
export const propName = fc.constantFrom('a', 'b', 'c', 'd');
export const reference = fc.constantFrom(
  '#/$defs/d0', '#/$defs/d1', '#/$defs/d2', '#/definitions/e0', '#', '#/$defs/d0/properties/a', '#/%24defs/d1', '#/$defs/missing',
  // Definitions under names a pointer must escape, each with a decoy where a misreading lands (see `rootSchema`).
  '#/$defs/a~1b', '#/$defs/~01', '#/$defs/~0',
);

type Schema = Record<string, unknown>;

/** One keyword that may stand beside any generated node (rarely). */
const extras = fc.oneof(
  fc.record({ description: fc.constantFrom('a thing', 'x'.repeat(170)) }),
  fc.constant({ nullable: true }),
  fc.record({ type: fc.oneof(typeName, fc.array(typeName, { minLength: 1, maxLength: 3 })) }),
  fc.record({ format: fc.constantFrom('date', 'email') }),
  fc.record({ default: someValue }),
  fc.record({ title: fc.constantFrom('A title', 'a') }),
  fc.record({ minimum: fc.integer({ min: -1, max: 6 }) }),
  fc.record({ maximum: fc.integer({ min: 0, max: 11 }) }),
  fc.constant({ additionalProperties: false }),
  fc.record({ type: fc.constant('object'), required: fc.subarray(['a', 'b', 'c'], { minLength: 1, maxLength: 2 }) }),
);

export const schemaArbitraries = fc.letrec<{ node: Schema; leaf: Schema; object: Schema; objectUnion: Schema; combo: Schema; ref: Schema; decorated: Schema }>((tie) => ({
  decorated: fc
    .tuple(tie('node'), fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: extras, weight: 1 }))
    .map(([node, more]) => (more ? { ...more, ...node } : node)),
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 4, withCrossShrink: true },
    { arbitrary: tie('leaf'), weight: 5 },
    { arbitrary: tie('object'), weight: 3 },
    { arbitrary: tie('combo'), weight: 4 },
    { arbitrary: tie('objectUnion'), weight: 2 },
    { arbitrary: tie('ref'), weight: 3 },
  ),
  leaf: fc.oneof(
    typeName.map((type) => ({ type })),
    fc.array(typeName, { minLength: 1, maxLength: 3 }).map((type) => ({ type })),
    fc.array(someValue, { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
    someValue.map((value) => ({ const: value })),
    fc.tuple(someValue, fc.constantFrom('Label', '')).map(([value, title]) => ({ const: value, title })),
    fc
      .record({ type: fc.constantFrom('number', 'integer'), minimum: fc.integer({ min: -1, max: 6 }), maximum: fc.integer({ min: 0, max: 11 }) }, { requiredKeys: ['type'] })
      .map((schema) => schema),
    fc.constant({}),
    fc.constant({ type: 'null' }),
    fc.constant({ enum: [null] }),
    typeName.map((type) => ({ type, nullable: true })),
    fc.constant(true as unknown as Schema),
    fc.constant(false as unknown as Schema),
  ),
  object: fc
    .record(
      {
        type: fc.constantFrom('object', 'object', 'object', undefined),
        properties: fc.dictionary(propName, tie('decorated'), { maxKeys: 3 }),
        required: fc.subarray(['a', 'b', 'c', 'd'], { maxLength: 2 }),
        additionalProperties: fc.constantFrom(false, undefined, undefined, { type: 'integer' }),
        items: tie('node'),
      },
      { requiredKeys: ['properties'] },
    )
    .map(dropUndefined),
  objectUnion: fc
    .tuple(fc.constantFrom('anyOf', 'oneOf'), fc.array(tie('object'), { minLength: 2, maxLength: 3 }))
    .map(([key, list]) => ({ [key]: list })),
  combo: fc
    .tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf', 'anyOf'), fc.array(tie('decorated'), { minLength: 1, maxLength: 3 }))
    .map(([key, list]) => ({ [key]: list })),
  ref: fc.tuple(reference, fc.option(fc.record({ description: fc.constant('here'), properties: fc.dictionary(propName, tie('leaf'), { maxKeys: 1 }) }, { requiredKeys: [] }), { freq: 3 })).map(([$ref, beside]) => ({ ...(beside ?? {}), $ref })),
}));

function dropUndefined(schema: Schema): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

/** A definition: any node, or often a nullable (OpenAPI) object or value type (recursive types, shared lists). */
const definition = fc.oneof(
  { arbitrary: schemaArbitraries.decorated, weight: 3 },
  { arbitrary: schemaArbitraries.object.map((schema) => ({ ...schema, type: 'object', nullable: true })), weight: 1 },
  { arbitrary: schemaArbitraries.leaf.map((schema) => (typeof schema === 'object' && schema !== null ? { type: 'string', ...schema, nullable: true } : schema)), weight: 1 },
);

/** The definitions again under names a pointer must escape: `a/b` (`a~1b`), `~1` (`~01`) and `~` (`~0`). */
function underEscapedNames(defs: { d0: Schema; d1: Schema; d2?: Schema }): Schema {
  return { 'a/b': defs.d0, '~1': defs.d1, ...(defs.d2 === undefined ? {} : { '~': defs.d2 }) };
}

/**
 * Where a pointer to `a/b`, `~1` or `~` lands when its escapes are misread (`~1` left as it is,
 * `~0` read before `~1` so that `~01` becomes `/`, `~0` left as it is): a schema no argument meets,
 * so a reference resolved to one of these refuses calls the page takes. Without them a misreading
 * would find nothing there, which only widens what the agent accepts and goes unseen.
 */
const misreadDecoys: Schema = Object.fromEntries(['a~1b', '/', '~01', '~0'].map((name) => [name, { const: `misread pointer to ${name}` }]));

/** A whole input schema: a root (most often an object, or a union or allOf of objects) and its definitions. */
export const rootSchema = fc
  .tuple(
    fc.oneof(
      { arbitrary: schemaArbitraries.object, weight: 3 },
      { arbitrary: schemaArbitraries.combo, weight: 3 },
      { arbitrary: schemaArbitraries.objectUnion, weight: 2 },
      { arbitrary: schemaArbitraries.decorated, weight: 2 },
      { arbitrary: schemaArbitraries.ref, weight: 1 },
    ),
    fc.record({ d0: definition, d1: definition, d2: definition }, { requiredKeys: ['d0', 'd1'] }),
    fc.option(schemaArbitraries.decorated, { freq: 3 }),
  )
  .map(([root, defs, e0]) => {
    if (!isObject(root)) return root;
    const schema: Schema = { ...root, $defs: { ...defs, ...underEscapedNames(defs), ...misreadDecoys } };
    if (e0 !== null) schema.definitions = { e0 };
    return schema;
  });

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arguments: an object whose keys meet the generated property names. */
export const argsArbitrary = fc.dictionary(propName, fc.oneof({ arbitrary: someValue, weight: 4 }, { arbitrary: fc.dictionary(propName, someValue, { maxKeys: 2 }), weight: 1 }), { maxKeys: 4 });

/** Schema-shaped junk, for "never throws": every keyword plainSchema reads, with values of any shape. */
const keywords = ['type', 'properties', 'required', 'enum', 'const', 'minimum', 'maximum', 'items', 'description', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', 'nullable', 'format', 'default', 'title', 'additionalProperties', '__proto__', 'constructor', 'toString'];
export const junkSchema = fc.letrec((tie) => ({
  schema: fc.dictionary(fc.constantFrom(...keywords), tie('value'), { maxKeys: 5, depthIdentifier: 'junk' }),
  value: fc.oneof(
    { maxDepth: 5, depthIdentifier: 'junk' },
    fc.jsonValue({ maxDepth: 1 }),
    reference,
    fc.constantFrom('#/', '#/%', '#//', '#/$defs', '#/anyOf/0', '#/properties', '#/allOf/0/allOf', '#/a~1b', '#/a~0', 'http://x', '#/__proto__', '#/constructor', '#/$defs/d0/properties/a/items'),
    typeName,
    fc.array(tie('schema'), { maxLength: 3, depthIdentifier: 'junk' }),
    fc.array(fc.oneof(tie('schema'), fc.jsonValue({ maxDepth: 1 })), { maxLength: 3, depthIdentifier: 'junk' }),
    fc.dictionary(fc.constantFrom('a', 'b', 'd0', 'd1', 'e0', '__proto__', ''), tie('schema'), { maxKeys: 3, depthIdentifier: 'junk' }),
    tie('schema'),
  ),
})).schema;

const universe: unknown[] = [null, true, false, 0, 1, -1, 2.5, 5, 10, 11, 'a', 'b', 'x', '', [], [1], ['a'], [null], {}, { a: 1 }, { a: 'a' }, { b: null }, { a: null }, { c: {} }];

/** Every enum / const value, minimum / maximum (and one past), anywhere in the schema. */
function valuesIn(schema: unknown, into: unknown[], depth = 0): unknown[] {
  if (depth > 40 || typeof schema !== 'object' || schema === null) return into;
  if (Array.isArray(schema)) {
    for (const item of schema) valuesIn(item, into, depth + 1);
    return into;
  }
  const record = schema as Record<string, unknown>;
  if (Array.isArray(record.enum)) into.push(...record.enum);
  if ('const' in record) into.push(record.const);
  for (const bound of [record.minimum, record.maximum]) if (typeof bound === 'number') into.push(bound, bound - 1, bound + 1, bound + 0.5);
  for (const [key, value] of Object.entries(record)) if (key !== 'enum' && key !== 'const') valuesIn(value, into, depth + 1);
  return into;
}

/** `count` argument objects whose keys are a..d and whose values come from the schema and the universe (objects one level deep too). */
export function argsFromSchema(schema: unknown, choices: number[], count: number): Record<string, unknown>[] {
  const pool = [...universe, ...valuesIn(schema, [])];
  let at = 0;
  const next = (): number => choices[at++ % choices.length]! + at;
  const value = (nested: boolean): unknown => {
    if (nested && next() % 4 === 0) {
      const object: Record<string, unknown> = {};
      for (const name of ['a', 'b', 'c', 'd']) if (next() % 3 === 0) object[name] = pool[next() % pool.length];
      return object;
    }
    return pool[next() % pool.length];
  };
  return Array.from({ length: count }, () => {
    const args: Record<string, unknown> = {};
    for (const name of ['a', 'b', 'c', 'd']) if (next() % 2 === 0) args[name] = value(true);
    return args;
  });
}
