import { describe, expect, it } from 'vitest';
import { searchScorer } from '@webmcp-agents/local-agent';
import { scorerFor } from '../../lib/agent/scorer-for';
import { defaultSettings } from '../../lib/settings';

describe('scorerFor', () => {
  it('gives the search scorer by default, and rankTools\' documented scorer when the setting asks for it', () => {
    expect(scorerFor(defaultSettings)).toBe(searchScorer);
    expect(scorerFor({ ...defaultSettings, ranker: 'word-overlap' })).toBeUndefined();
  });
});
