/** The outcome of copying page data: plain JSON, or why it could not be taken. */
export type CopyResult = { ok: true; value: unknown } | { ok: false; reason: string };

export interface CopyLimits {
  /** Deepest nesting of objects and arrays. */
  depth: number;
  /** Most values (objects, arrays, strings, numbers…) in the whole copy. */
  values: number;
}

class CopyRefusal extends Error {}

/**
 * Copies a value a page handed over into fresh plain JSON (objects, arrays, strings, finite
 * numbers, booleans, null), reading each property once. Getters that throw, cycles, functions and
 * class instances make it refuse with a reason; it never throws.
 */
export function copyJsonValue(value: unknown, limits: CopyLimits): CopyResult {
  const budget = { values: limits.values };
  try {
    return { ok: true, value: copyValue(value, limits.depth, budget) };
  } catch (error) {
    const reason = error instanceof CopyRefusal ? error.message : 'it could not be read';
    return { ok: false, reason };
  }
}

function copyValue(value: unknown, depthLeft: number, budget: { values: number }): unknown {
  budget.values -= 1;
  if (budget.values < 0) throw new CopyRefusal('it has too many values');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CopyRefusal('it holds a number that is not finite');
    return value;
  }
  if (typeof value !== 'object') throw new CopyRefusal(`it holds a ${typeof value}, which is not JSON`);
  if (depthLeft <= 0) throw new CopyRefusal('it is nested too deeply');
  if (Array.isArray(value)) return copyArray(value, depthLeft, budget);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new CopyRefusal('it holds an object that is not plain JSON');
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    // defineProperty, not assignment: a key named "__proto__" must stay a plain key.
    Object.defineProperty(copy, key, {
      value: copyValue(item, depthLeft - 1, budget),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Holes and undefined items become null, as in JSON: a sparse array must not survive as one. */
function copyArray(value: unknown[], depthLeft: number, budget: { values: number }): unknown[] {
  // A page can claim a length of millions with no items: the budget is checked before looping.
  if (value.length > budget.values) throw new CopyRefusal('it has too many values');
  const copy: unknown[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const item = value[index];
    copy.push(item === undefined ? null : copyValue(item, depthLeft - 1, budget));
  }
  return copy;
}
