import { describe, expect, it } from 'vitest';
import { whyFiguresStay } from '../../bench/bench-section';

describe('npm run bench and the figures on record', () => {
  const row = { measure: 'x', value: 1 };

  it('writes a bench that measured all it measures', () => {
    expect(whyFiguresStay([{ title: 'a', rows: [row] }, { title: 'b', rows: [row], leftOut: [] }])).toBeUndefined();
  });

  it('keeps the figures of a bench that measured nothing here, or left part out, rather than erase a row it could not measure', () => {
    expect(whyFiguresStay([{ title: 'a', rows: [] }])).toBe('it measured nothing here');
    expect(whyFiguresStay([{ title: 'a', rows: [row], leftOut: ['the corpus row (toolcalls.json was not found beside the project)'] }])).toBe(
      'it left out the corpus row (toolcalls.json was not found beside the project)',
    );
  });
});
