import { isRecord, type JSONSchema } from '@webmcp-agents/chat';
import { both } from '../registry/merge-schemas';
import { resolvePointer } from '../registry/resolve-pointer';

/**
 * A starting value for a JSON editor, shaped like the schema and, where it can be, one the schema
 * takes as it stands: objects with their required properties (and, where none is required, those
 * whose plain starting value breaks no rule: the shape shows, nothing made up is refused), arrays
 * with one item, the first enum value, a number within its bounds, "" for text. Of `anyOf` and
 * `oneOf` it follows the first branch that is not null; `allOf` branches are merged; a reference
 * (`$ref`) is read as what it points to in `root` (the schema itself unless given).
 */
export function jsonTemplate(schema: unknown, root: unknown = schema): unknown {
  return templateOf(schema, { root: isRecord(root) ? root : {}, left: templateBudget }, 0);
}

/**
 * How many values one template holds at most: a page's schema whose properties refer back to it
 * (each of eight required ones to the whole) would make one of millions. Past it, a value is the
 * plain one of its type, read no further.
 */
const templateBudget = 1_000;

interface Template {
  root: JSONSchema;
  /** Values the template may still hold. */
  left: number;
}

function templateOf(schema: unknown, template: Template, depth: number): unknown {
  if (!isRecord(schema) || depth > 6) return null;
  if (template.left <= 0) return plainValue(schema);
  template.left -= 1;
  const { root } = template;
  const node = followBranches(schema, root);
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  if ('default' in node) return node.default;
  switch (firstType(node)) {
    case 'object':
      return objectTemplate(node, template, depth);
    case 'array':
      return arrayTemplate(node, template, depth);
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return numberWithin(node);
    case 'boolean':
      return false;
    default:
      return isRecord(node.properties) ? objectTemplate(node, template, depth) : null;
  }
}

/** The plainest value of a schema's own type, its references and branches unread. */
function plainValue(schema: JSONSchema): unknown {
  const plain: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, object: {}, array: [] };
  const type = firstType(schema);
  return type !== undefined && Object.hasOwn(plain, type) ? plain[type] : null;
}

function objectTemplate(node: JSONSchema, template: Template, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  if (!isRecord(node.properties)) return value;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  for (const [key, property] of Object.entries(node.properties)) {
    // An optional property is left out unless nothing is required, and then only a plain one.
    if (!required.has(key) && (required.size > 0 || !startsValid(property, template.root))) continue;
    Object.defineProperty(value, key, { value: templateOf(property, template, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return value;
}

/** One item to show the shape, where the items have one to show (none past the depth, or for `items: false`). */
function arrayTemplate(node: JSONSchema, template: Template, depth: number): unknown[] {
  const item = node.items === undefined ? null : templateOf(node.items, template, depth + 1);
  return item === null ? [] : [item];
}

/** The smallest number the bounds allow (0 where they allow it), a whole one for an integer, a multiple where one is asked for. */
function numberWithin(node: JSONSchema): number {
  const integer = firstType(node) === 'integer';
  const low = typeof node.minimum === 'number' ? node.minimum : undefined;
  const above = typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined;
  const high = typeof node.maximum === 'number' ? node.maximum : undefined;
  const below = typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum : undefined;
  const step = typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : integer ? 1 : undefined;
  // The lowest value the lower bounds allow: the minimum, or the next step past an exclusive one.
  const floors = [low, above === undefined ? undefined : above + (step ?? 1)].filter((bound): bound is number => bound !== undefined);
  let value = floors.length > 0 ? Math.max(...floors) : Math.min(0, high ?? 0, below === undefined ? 0 : below - (step ?? 1));
  if (step !== undefined) value = Math.ceil(value / step) * step;
  // Bounds closer than a step apart (a share between 0 and 1, both left out): halfway.
  const ceiling = high ?? below;
  if (ceiling !== undefined && (value > ceiling || (below !== undefined && value >= below))) value = ((low ?? above ?? ceiling - 2) + ceiling) / 2;
  return value;
}

/** Whether a property's plain starting value keeps its rules: a scalar with no length, pattern or format to meet. */
function startsValid(property: unknown, root: JSONSchema): boolean {
  if (!isRecord(property)) return false;
  const node = followBranches(property, root);
  if ((Array.isArray(node.enum) && node.enum.length > 0) || 'const' in node || 'default' in node) return true;
  switch (firstType(node)) {
    case 'string':
      return !(typeof node.minLength === 'number' && node.minLength > 0) && node.pattern === undefined && node.format === undefined;
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return node.multipleOf === undefined;
    default:
      return false;
  }
}

/** How many branches one reading of a node follows at most: a page's schema may make them many times more than it is long. */
const branchBudget = 500;

/**
 * The schema a form fills in for a node with alternatives: the first `anyOf` or `oneOf` branch
 * that is not just null (how zod writes `.nullable()`), and every `allOf` branch, each merged
 * into the rest of the node. With `root`, references are read as what they point to there; one
 * that points back to a node being read already (`allOf: [{$ref: "#"}]`) adds nothing, and is not
 * followed again. A page's schema whose references fan out (each definition taking the next many
 * times over) is read up to `branchBudget` branches.
 */
export function followBranches(node: JSONSchema, root?: JSONSchema): JSONSchema {
  return followWithin(node, { root, reading: new Set(root && node === root ? [root] : []), left: branchBudget }, 0);
}

interface Reading {
  root: JSONSchema | undefined;
  /** The nodes references led to on the way here. */
  reading: Set<JSONSchema>;
  /** Branches that may still be followed. */
  left: number;
}

function followWithin(node: JSONSchema, state: Reading, depth: number): JSONSchema {
  const { node: followed, targets } = state.root ? followReference(node, state.root) : { node, targets: [] };
  const { anyOf, oneOf, allOf, ...rest } = followed;
  if (depth > 8) return rest;
  const entered = targets.filter((target) => !state.reading.has(target));
  entered.forEach((target) => state.reading.add(target));
  const refersBack = (branch: JSONSchema) => state.root !== undefined && followReference(branch, state.root).targets.some((target) => state.reading.has(target));
  const follow = (branch: unknown): JSONSchema | undefined => {
    if (!isRecord(branch) || state.left <= 0) return undefined;
    state.left -= 1;
    // What it points back to is being read already: only what it says beside the reference is new.
    if (refersBack(branch)) {
      const { $ref: _pointsBack, ...own } = branch;
      return followWithin(own, state, depth + 1);
    }
    return followWithin(branch, state, depth + 1);
  };
  let merged: JSONSchema = rest;
  if (Array.isArray(allOf)) for (const branch of allOf) merged = both(follow(branch) ?? {}, merged);
  const branches = (Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : []).filter(
    (branch): branch is JSONSchema => isRecord(branch) && !isNullSchema(state.root ? followReference(branch, state.root).node : branch),
  );
  // A branch that adds something of its own first, one that only points back last.
  const chosen = branches.find((branch) => !refersBack(branch)) ?? branches[0];
  // Merged as `allOf` is (see `both`): where both say something, the branch's word; every required name of both.
  const branch = follow(chosen);
  entered.forEach((target) => state.reading.delete(target));
  return branch ? both(branch, merged) : merged;
}

/**
 * A node that points elsewhere (`$ref`) as what it points to, with its own keywords beside, and
 * the nodes it was led to; a chain is followed a few links.
 */
function followReference(node: JSONSchema, root: JSONSchema): { node: JSONSchema; targets: JSONSchema[] } {
  let current = node;
  const targets: JSONSchema[] = [];
  for (let links = 0; links < 8 && typeof current.$ref === 'string'; links += 1) {
    const { $ref, ...rest } = current;
    const target = resolvePointer(root, $ref);
    if (isRecord(target)) targets.push(target);
    current = isRecord(target) ? { ...target, ...rest } : rest;
  }
  return { node: current, targets };
}

/** A schema that allows only null: `{type: "null"}`. */
export function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null'));
}


/** A schema's type; of a list like `["string", "null"]`, the first that is not "null". */
export function firstType(node: JSONSchema): string | undefined {
  if (typeof node.type === 'string') return node.type;
  if (Array.isArray(node.type)) return node.type.find((type): type is string => typeof type === 'string' && type !== 'null');
  return undefined;
}
