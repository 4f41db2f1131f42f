import { describe, expect, it } from 'vitest';
import { checkToolResult } from '@/lib/devtools/check-tool-result';
import { mayBacktrack } from '@/lib/devtools/risky-pattern';

describe('a page pattern that could hold the page', () => {
  it('is a repeated group, or more than three unbounded repeats', () => {
    for (const risky of ['^(a+)+$', '^(a|a)*$', '(.*a){25}', '^(\\w*\\s?)*$', '(x{2,})+', '^\\d*\\d*\\d*\\d*!$']) expect(mayBacktrack(risky), risky).toBe(true);
  });

  it('is not a plain pattern, an optional group, or repeats inside a character class or escaped', () => {
    for (const plain of ['^[A-Z]{3}$', '^[0-9]+$', '^\\d{3}-\\d{4}$', '^(\\+44)?\\d+$', '^[+*]+$', '^a\\+b\\*c$', '^(ab){1}$', '^\\p{L}+$']) expect(mayBacktrack(plain), plain).toBe(false);
  });

  // Run, this pattern on this value would hold the test for hours: it times out without the guard.
  it('is not run on a tool result, which the page chose: that rule is left unchecked', () => {
    const tool = (pattern: string) => ({ name: 'shout', outputSchema: { type: 'object', properties: { v: { type: 'string', pattern } } } });
    const check = checkToolResult(tool('^(a+)+$'), { text: JSON.stringify({ v: `${'a'.repeat(40)}!` }) });
    expect(check?.matches).toBe(true);
    // A plain pattern is still checked.
    expect(checkToolResult(tool('^[a-z]+$'), { text: JSON.stringify({ v: 'A!' }) })?.matches).toBe(false);
  });
});
