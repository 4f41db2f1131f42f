import { isRecord } from '@webmcp-agents/chat';
import { resolvePointer } from './resolve-pointer';
import { both, mergeUnion } from './merge-schemas';
import { plainKeywords, valuesOverType } from './plain-keywords';
import type { Schema } from './schema-values';

/**
 * A page's schema in the words the prompt keeps. The compact schema a small model reads keeps only
 * `type`, `properties`, `required`, `enum`, `minimum`, `maximum`, `items` and `description` (see
 * `compactSchema`), but schemas that zod, TypeScript or an MCP server generate say much of what
 * matters otherwise: a model shown `"shipping": {}` for a `$ref` cannot fill in an address. So:
 *
 * - a local `$ref` (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) is replaced by what it
 *   points at, with what stands beside it (a reference to itself, or past a size budget, keeps
 *   only the target's `type`);
 * - `allOf` is merged into one schema (properties and `required` of every part);
 * - `anyOf` / `oneOf` of values (`const`) becomes an `enum`; of one schema and `null` (a nullable
 *   field), that schema or null; of plain types, a list of types; of objects, one object with
 *   every branch's properties, each taking what any branch allows there, and required only what
 *   every branch requires;
 * - `const` becomes a one-value `enum`, OpenAPI's `nullable: true` adds null;
 * - `format` and `default` are said at the start of the description: "(format: date)";
 * - an `enum` that lists no value of the schema's `type` is read as its values say (see valuesOverType).
 *
 * A call the page's schema accepts is never refused by the result (merges only widen: where
 * branches disagree on a property, it takes either), so checking a call against it stays a first
 * check, the page's own the last. Choices with titles (`anyOf` of `{const, title}`) keep their
 * list for `foldChoiceTitles`. A schema with none of these comes back as the same object.
 *
 * `notes: false` leaves descriptions as the page wrote them, for a reader that shows `format` and
 * `default` itself (the inspector's run form).
 */
export function plainSchema(schema: unknown, { notes = true }: { notes?: boolean } = {}): unknown {
  if (!isRecord(schema)) return schema;
  // References may write out up to twice the schema again (a few thousand characters at least).
  const budget = Math.min(inlineBudgetLimit, Math.max(inlineBudgetFloor, 2 * JSON.stringify(schema).length));
  const context: Context = { root: schema, budget, sizes: new Map(), notes };
  const plain = plainNode(schema, context, 0, new Set());
  if (!isRecord(plain) || (!('$defs' in plain) && !('definitions' in plain))) return plain;
  const { $defs: _defs, definitions: _definitions, ...rest } = plain;
  return rest;
}

interface Context {
  root: Schema;
  /** Characters of schema still to be copied in for references: a few of them can multiply a schema. */
  budget: number;
  /** Each reference's size, measured once. */
  sizes: Map<string, number>;
  /** Whether `format` and `default` are said in descriptions. */
  notes: boolean;
}

const inlineBudgetFloor = 8_000;
const inlineBudgetLimit = 100_000;
const depthLimit = 24;

/** `inlining`: the references being written out on the way here; one met again refers to itself. */
function plainNode(node: unknown, context: Context, depth: number, inlining: ReadonlySet<string>): unknown {
  if (!isRecord(node) || depth > depthLimit) return node;
  const flat = flatten(node, context, inlining);
  let schema = flat.schema;
  const below = flat.inlined.length > 0 ? new Set([...inlining, ...flat.inlined]) : inlining;
  // Both where an `allOf` brought one beside the other (a nullable field's branch may be such a
  // merge): each is merged, or the one left would hide the branch's type from its parent's union.
  for (const union of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(schema[union])) continue;
    // Its branches are made plain first, each spending the inline budget in turn, then merged.
    const branches = (schema[union] as unknown[]).map((branch) => plainNode(branch, context, depth + 1, below));
    schema = mergeUnion(schema, union, branches);
  }
  schema = valuesOverType(plainKeywords(schema, context.notes));

  if (isRecord(schema.properties)) {
    let changed = false;
    const properties = Object.entries(schema.properties).map(([key, property]) => {
      const next = plainNode(property, context, depth + 1, below);
      changed ||= next !== property;
      return [key, next] as const;
    });
    // Built from entries: a property named "__proto__" stays a property.
    if (changed) schema = { ...schema, properties: Object.fromEntries(properties) };
  }
  const items = plainNode(schema.items, context, depth + 1, below);
  if (items !== schema.items) schema = { ...schema, items };
  return schema;
}

/** The node with its own `$ref` written out and its `allOf` merged (their parts' too), and the references it wrote out. */
function flatten(node: Schema, context: Context, inlining: ReadonlySet<string>): { schema: Schema; inlined: string[] } {
  const inlined: string[] = [];
  const visit = (schema: Schema): Schema => {
    let flat = schema;
    if (typeof flat.$ref === 'string') {
      const { $ref: reference, ...beside } = flat;
      const key = reference as string;
      const target = resolvePointer(context.root, key);
      if (!isRecord(target)) flat = beside;
      else if (inlining.has(key) || inlined.includes(key) || !spend(context, key, target)) {
        // A tree that holds itself (a category and its subcategories), or past the budget: the model
        // reads the kind of value (null included, where OpenAPI's `nullable` says so).
        flat = 'type' in target && !('type' in beside) ? { type: target.type, ...(target.nullable === true ? { nullable: true } : {}), ...beside } : beside;
      } else {
        inlined.push(key);
        // What stands beside the reference (a description of this use) says more than the target's.
        flat = both(beside, visit(target));
      }
    }
    if (Array.isArray(flat.allOf)) {
      const { allOf, ...rest } = flat;
      flat = both(rest, ...allOf.filter(isRecord).map(visit));
    }
    return flat;
  };
  return { schema: visit(node), inlined };
}

/** Whether the budget allows writing `target` out once more; if so, it is spent. */
function spend(context: Context, key: string, target: Schema): boolean {
  let size = context.sizes.get(key);
  if (size === undefined) {
    size = JSON.stringify(target).length;
    context.sizes.set(key, size);
  }
  if (size > context.budget) return false;
  context.budget -= size;
  return true;
}
