/**
 * Whether a page's `pattern` could hold the page for seconds or more on some input, so that it is
 * never run here on a value the page chose (a result) or a long one: a group repeated (`(a+)+`,
 * `(a|a)*`, `(.*a){25}`: tries that double with each character), or more than three unbounded
 * repeats (`\d*\d*\d*\d*!`: tries that grow as a power of the length). A rough test that errs on
 * the side of not checking: such a pattern is left unchecked, as one that does not compile is.
 */
export function mayBacktrack(pattern: string): boolean {
  const outsideClasses = pattern.replace(/\\./g, '_').replace(/\[(?:[^\]\\]|\\.)*\]/g, '_');
  if (/\)(?:[+*]|\{(?!0?,?1\})\d*,?\d*\})/.test(outsideClasses)) return true;
  return (outsideClasses.match(/[+*]|\{\d+,\}/g) ?? []).length > 3;
}

/** The longest value a page's pattern is run on: past it, even a pattern of a few repeats takes too long. */
export const longestPatternValue = 1_000;
