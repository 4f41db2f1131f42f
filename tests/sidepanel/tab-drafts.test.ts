import { describe, expect, it } from 'vitest';
import { createTabDrafts } from '@/lib/sidepanel/tab-drafts';

describe('the drafts of the tabs a panel leaves', () => {
  it('gives a tab back what was typed there, once, and nothing to a tab where nothing was', () => {
    const drafts = createTabDrafts();
    expect(drafts.turn(1, 2, 'add a mug')).toBe('');
    expect(drafts.turn(2, 1, '')).toBe('add a mug');
    expect(drafts.turn(1, 2, '')).toBe('');
    expect(drafts.turn(2, 1, '')).toBe('');
  });
});
