/**
 * A small, correct JSON Schema (2020-12 semantics, plus OpenAPI 3.0 `nullable`) validator for the
 * subset the fuzzer generates: type (string or list), enum, const, minimum, maximum, required,
 * properties, additionalProperties (false or a schema), patternProperties (optional), items,
 * allOf, anyOf, oneOf, local $ref (a JSON pointer, siblings apply too), boolean schemas.
 *
 * Ill-founded recursion (a schema that reaches itself through $ref / combinators without
 * consuming any of the value) sets `illFounded`: a real validator would loop or refuse to compile,
 * so a caller discards such a case instead of calling it "accepted".
 */

export type Options = {
  /** OpenAPI 3.0: `nullable: true` beside a `type` adds null to that type. */
  nullable?: boolean;
  /** Honour patternProperties (and let additionalProperties:false see it). */
  patternProperties?: boolean;
  /** Draft-07: siblings of $ref are ignored. */
  draft7Ref?: boolean;
  /** Unknown type names ("date", "any") accept anything instead of being a schema error. */
  lenientTypes?: boolean;
};

export class Reference {
  illFounded = false;
  private readonly stack = new Set<string>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  constructor(
    private readonly root: unknown,
    private readonly options: Options = { nullable: true },
  ) {}

  accepts(value: unknown): boolean {
    return this.check(this.root, value);
  }

  private id(object: object): number {
    let id = this.ids.get(object);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(object, id);
    }
    return id;
  }

  private check(schema: unknown, value: unknown): boolean {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isRecord(schema)) return true; // not a schema: the generator does not make these
    // (schema, value) already being checked: ill-founded recursion.
    const key = `${this.id(schema)}:${typeof value === 'object' && value !== null ? `o${this.id(value)}` : JSON.stringify(value)}`;
    if (this.stack.has(key)) {
      this.illFounded = true;
      return false;
    }
    this.stack.add(key);
    try {
      return this.checkNode(schema, value);
    } finally {
      this.stack.delete(key);
    }
  }

  private checkNode(schema: Record<string, unknown>, value: unknown): boolean {
    if (typeof schema.$ref === 'string') {
      const target = resolvePointer(this.root, schema.$ref);
      // An unresolvable reference: read as {} (plainSchema does the same; a strict validator
      // would refuse to compile the schema, so this only widens what the reference accepts).
      if (target !== undefined && !this.check(target, value)) return false;
      if (this.options.draft7Ref) return true;
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
      if (this.options.nullable && schema.nullable === true) types.push('null');
      if (!types.some((type) => hasType(value, type, this.options.lenientTypes ?? false))) return false;
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((choice) => sameJson(choice, value))) return false;
    if ('const' in schema && !sameJson(schema.const, value)) return false;
    if (typeof value === 'number') {
      if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
      if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    }
    if (isRecord(value)) {
      if (Array.isArray(schema.required) && !schema.required.every((name) => typeof name !== 'string' || Object.hasOwn(value, name))) return false;
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const patterns = this.options.patternProperties && isRecord(schema.patternProperties) ? schema.patternProperties : {};
      for (const [name, child] of Object.entries(value)) {
        let evaluated = false;
        if (Object.hasOwn(properties, name)) {
          evaluated = true;
          if (!this.check(properties[name], child)) return false;
        }
        for (const [pattern, patternSchema] of Object.entries(patterns)) {
          if (new RegExp(pattern, 'u').test(name)) {
            evaluated = true;
            if (!this.check(patternSchema, child)) return false;
          }
        }
        if (!evaluated && schema.additionalProperties !== undefined && !this.check(schema.additionalProperties, child)) return false;
      }
    }
    if (Array.isArray(value) && schema.items !== undefined) {
      if (Array.isArray(schema.items)) {
        if (!value.every((item, index) => index >= (schema.items as unknown[]).length || this.check((schema.items as unknown[])[index], item))) return false;
      } else if (!value.every((item) => this.check(schema.items, item))) return false;
    }
    if (Array.isArray(schema.allOf) && !schema.allOf.every((part) => this.check(part, value))) return false;
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((part) => this.check(part, value))) return false;
    if (Array.isArray(schema.oneOf) && schema.oneOf.filter((part) => this.check(part, value)).length !== 1) return false;
    return true;
  }
}

export function hasType(value: unknown, type: unknown, lenient: boolean): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return lenient;
  }
}

/**
 * What a local `$ref` points at. Read from RFC 6901 itself, not from plainSchema's reading, so that
 * a slip in that one shows as a disagreement instead of being copied here: the fragment after `#`
 * is percent-decoded as a whole, a pointer is `""` (the root) or `/`-prefixed segments, and in a
 * segment `~0` stands for `~` and `~1` for `/` (a `~` before anything else is no pointer).
 */
export function resolvePointer(root: unknown, reference: string): unknown {
  const segments = pointerSegments(reference);
  if (segments === undefined) return undefined;
  let node = root;
  for (const segment of segments) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** `#/$defs/a~1b` → `["$defs", "a/b"]`; undefined when `reference` is not a local JSON pointer. */
function pointerSegments(reference: string): string[] | undefined {
  if (!reference.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(reference.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const segments: string[] = [];
  for (const escaped of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(escaped)) return undefined;
    // One pass, each escape read once: `~01` is `~1`, never `/`.
    segments.push(escaped.replace(/~[01]/g, (escape) => (escape === '~0' ? '~' : '/')));
  }
  return segments;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson((left as never)[key], (right as never)[key]));
}

/**
 * What validateArgs would say of `value` against a compact schema, applied at every level (the
 * nested structure the model is told): type (known names), non-empty enum, min/max, required
 * (presence), properties, items (one schema or a tuple). Returns a path of the first refusal.
 */
export function deepRefusal(schema: unknown, value: unknown, path = '$', depth = 0): string | null {
  if (!isRecord(schema) || depth > 40) return null;
  const known = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => known.includes(type as string));
  if (types.length > 0 && !types.some((type) => hasType(value, type, false) && (type !== 'number' || Number.isFinite(value)))) return `${path}: type ${JSON.stringify(schema.type)}`;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && !schema.enum.some((choice) => sameJson(choice, value))) return `${path}: enum ${JSON.stringify(schema.enum)}`;
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `${path}: minimum ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `${path}: maximum ${schema.maximum}`;
  }
  if (isRecord(value)) {
    if (Array.isArray(schema.required)) {
      const missing = schema.required.find((name) => typeof name === 'string' && !Object.hasOwn(value, name));
      if (missing !== undefined) return `${path}: required ${JSON.stringify(missing)}`;
    }
    if (isRecord(schema.properties)) {
      for (const [name, child] of Object.entries(schema.properties)) {
        if (!Object.hasOwn(value, name)) continue;
        const refusal = deepRefusal(child, value[name], `${path}.${name}`, depth + 1);
        if (refusal) return refusal;
      }
    }
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const itemSchema = Array.isArray(schema.items) ? schema.items[index] : schema.items;
      const refusal = deepRefusal(itemSchema, item, `${path}[${index}]`, depth + 1);
      if (refusal) return refusal;
    }
  }
  return null;
}
