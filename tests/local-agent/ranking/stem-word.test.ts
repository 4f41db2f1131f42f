import { describe, expect, it } from 'vitest';
import { stemWord } from '../../../lib/local-agent/ranking/stem-word';

describe('stemWord', () => {
  it('folds plurals and verb forms of a word onto one stem', () => {
    const forms = ['book', 'books', 'booking', 'booked'];
    expect(new Set(forms.map(stemWord))).toEqual(new Set(['book']));
    const create = ['create', 'created', 'creating', 'creates', 'creation'];
    expect(new Set(create.map(stemWord)).size).toBe(1);
  });

  it('undoubles a final consonant left by -ing and -ed', () => {
    expect(stemWord('running')).toBe(stemWord('run'));
    expect(stemWord('stopped')).toBe(stemWord('stop'));
  });

  it('folds -ies and -y onto one stem', () => {
    expect(stemWord('categories')).toBe(stemWord('category'));
    expect(stemWord('activities')).toBe(stemWord('activity'));
  });

  it('leaves short words and words ending in -ss, -us, -is alone', () => {
    expect(stemWord('bus')).toBe('bus');
    expect(stemWord('ids')).toBe('ids');
    expect(stemWord('address')).toBe('address');
    expect(stemWord('status')).toBe('status');
    expect(stemWord('analysis')).toBe('analysis');
  });

  it('does not strip a suffix that would leave no vowel', () => {
    expect(stemWord('bring')).toBe('bring');
    expect(stemWord('shed')).toBe('shed');
  });
});
