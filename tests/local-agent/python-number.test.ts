import { describe, expect, it } from 'vitest';
import { readPythonNumber } from '../../lib/local-agent/parsing/python-number';

describe('readPythonNumber', () => {
  it('reads ints, floats, signs, underscores and prefixes, ending where the number does', () => {
    expect(readPythonNumber('-12, x', 0, 6)).toEqual({ end: 3, value: -12 });
    expect(readPythonNumber('[1_000.5e-1]', 1, 12)).toEqual({ end: 11, value: 100.05 });
    expect(readPythonNumber('0x1F)', 0, 5)).toEqual({ end: 4, value: 31 });
    expect(readPythonNumber('007', 0, 3)).toEqual({ end: 3, value: 7 });
  });

  it('says the text ended inside a number that is not one yet', () => {
    expect(readPythonNumber('1e', 0, 2)).toEqual({ end: 2, cut: true });
    expect(readPythonNumber('-', 0, 1)).toEqual({ end: 1, cut: true });
  });

  it('says why a word that starts like a number is not one, or is too long', () => {
    expect(readPythonNumber('12abc, 1', 0, 8)).toEqual({ end: 5, reason: '"12abc" is not a number' });
    expect(readPythonNumber(`${'9'.repeat(101)},`, 0, 102)).toEqual({ end: 101, reason: 'a number is too long' });
  });
});
