import { describe, expect, it } from 'vitest';
import { startCutState } from '../../../lib/local-agent/turn-cut/cut-state';
import { partialSuffix, passThink } from '../../../lib/local-agent/turn-cut/pass-think';

describe('partialSuffix', () => {
  it('counts the characters at the end of a text that could start a token, never the whole token', () => {
    expect(partialSuffix('I will call it <', '</think>')).toBe(1);
    expect(partialSuffix('I will call it </thi', '</think>')).toBe(5);
    expect(partialSuffix('</think', '</think>')).toBe(7);
    expect(partialSuffix('done </think>', '</think>')).toBe(0);
    expect(partialSuffix('a < b', '</think>')).toBe(0);
    expect(partialSuffix('', '</think>')).toBe(0);
  });
});

describe('passThink', () => {
  it('passes reasoning on up to and with its closing tag, then leaves it', () => {
    const state = { ...startCutState(), region: 'think' as const };
    const work = 'the <tool_response> it gives</think>Adding them.';
    expect(passThink(state, work, 0, false)).toBe(work.indexOf('Adding'));
    expect(state.shown).toBe('the <tool_response> it gives</think>');
    expect(state.region).toBe('prose');
    expect(state.held).toBe('');
  });

  it('holds back a tail that could start its closing tag until the reply shows more, or ends', () => {
    const state = { ...startCutState(), region: 'think' as const };
    expect(passThink(state, 'Add them.</th', 0, false)).toBe('Add them.</th'.length);
    expect(state.shown).toBe('Add them.');
    expect(state.held).toBe('</th');
    expect(state.region).toBe('think');
    const ended = { ...startCutState(), region: 'think' as const };
    expect(passThink(ended, 'Add them.</th', 0, true)).toBe('Add them.</th'.length);
    expect(ended.shown).toBe('Add them.</th');
    expect(ended.held).toBe('');
  });

  it('starts where the scan has got to, not at the start of the text', () => {
    const state = { ...startCutState(), region: 'think' as const };
    expect(passThink(state, '<think>a</think>b', 7, false)).toBe(16);
    expect(state.shown).toBe('a</think>');
  });
});
