import { describe, expect, it } from 'vitest';
import { tabName, tabNameLength, waitingWords } from '../../lib/agent/waiting-words';

describe('the words of a tab waiting for another tab', () => {
  it('names the tab waited for, and says when only the person’s answer there ends the wait', () => {
    expect(waitingWords('reply')).toBe('Waiting for the reply in another tab…');
    expect(waitingWords('run')).toBe('Waiting for the run in another tab to end…');
    expect(waitingWords('reply', { name: 'Mug shop' })).toBe('Waiting for the reply in “Mug shop”…');
    expect(waitingWords('run', { name: 'Mug shop' })).toBe('Waiting for the run in “Mug shop” to end…');
    expect(waitingWords('run', { name: 'Mug shop', askingYou: true })).toBe('Waiting for your answer in “Mug shop”, whose run must end first…');
    expect(waitingWords('reply', { name: 'Mug shop', askingYou: true })).toBe('Waiting for your answer in “Mug shop”…');
    expect(waitingWords('run', { askingYou: true })).toBe('Waiting for your answer in another tab, whose run must end first…');
  });

  it('names the first of several runs a new model waits for, and says how many others, in few words', () => {
    expect(waitingWords('run', { name: 'Mug shop', others: 1 })).toBe('Waiting for the runs in “Mug shop” and 1 other tab to end…');
    expect(waitingWords('run', { name: 'Mug shop', others: 2 })).toBe('Waiting for the runs in “Mug shop” and 2 other tabs to end…');
    expect(waitingWords('run', { others: 2 })).toBe('Waiting for the runs in 3 other tabs to end…');
    expect(waitingWords('run', { name: 'Mug shop', askingYou: true, others: 1 })).toBe('Waiting for your answer in “Mug shop”, whose run and 1 other must end first…');
    expect(waitingWords('run', { name: 'Mug shop', askingYou: true, others: 3 })).toBe('Waiting for your answer in “Mug shop”, whose run and 3 others must end first…');
    expect(waitingWords('run', { name: 'Mug shop', others: 0 })).toBe('Waiting for the run in “Mug shop” to end…');
    // A reply is one tab's at a time: there are no others to count.
    expect(waitingWords('reply', { name: 'Mug shop', others: 2 })).toBe('Waiting for the reply in “Mug shop”…');
  });

  it('names a tab by its title, or by its site where the title says nothing', () => {
    expect(tabName('Mug shop', 'https://shop.example')).toBe('Mug shop');
    expect(tabName(undefined, 'https://shop.example')).toBe('shop.example');
    expect(tabName(' \n\t ', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(tabName('', '')).toBeUndefined();
  });

  it('cuts a long title, and shows none of the invisible characters a page could hide in it', () => {
    const long = tabName('Trail mug, forest green — hand-thrown stoneware, 350 ml | Mug shop', 'https://shop.example')!;
    expect(long).toBe('Trail mug, forest green — hand-thrown s…');
    expect(Array.from(long)).toHaveLength(tabNameLength);
    // Line breaks are spaces; direction overrides, zero-width characters and controls are gone.
    expect(tabName('Mug\n\nshop\u202E\u200B\u0007 ', 'https://shop.example')).toBe('Mug shop');
    // A title of emoji is cut between characters, never inside one.
    expect(tabName('☕'.repeat(30) + '🍵'.repeat(30), 'https://shop.example')).toBe('☕'.repeat(30) + '🍵'.repeat(9) + '…');
  });
});
