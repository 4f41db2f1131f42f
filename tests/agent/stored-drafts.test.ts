import { describe, expect, it } from 'vitest';
import { createDraftStorage, storedDraftsOfTabs } from '@/lib/agent/stored-drafts';
import { createFakeDraftArea } from './fake-draft-area';

describe('the drafts kept in session storage', () => {
  it('keeps each tab its own draft and forgets an empty one', async () => {
    const { area, items } = createFakeDraftArea();
    const drafts = createDraftStorage(area);
    drafts.write(1, 'add a mug');
    drafts.write(2, 'a pot of green tea');
    await drafts.settled();
    expect(await drafts.read(1)).toBe('add a mug');
    expect(await drafts.read(2)).toBe('a pot of green tea');
    expect(await drafts.read(3)).toBe('');

    drafts.write(1, '');
    await drafts.settled();
    expect(await drafts.read(1)).toBe('');
    expect([...items.keys()]).toEqual(['panelDraft:2']);
  });

  it('writes only the last of the texts typed before its write went out, in the order typed', async () => {
    const { area, sets } = createFakeDraftArea();
    const drafts = createDraftStorage(area);
    for (const text of ['a', 'ad', 'add']) drafts.write(1, text);
    const first = drafts.settled();
    for (const text of ['add a', 'add a mug']) drafts.write(1, text);
    drafts.write(2, 'tea');
    await first;
    await drafts.settled();
    expect(sets).toEqual([{ 'panelDraft:1': 'add a mug' }, { 'panelDraft:2': 'tea' }]);
  });

  it('keeps no draft past the budget, rather than an older one in its place, and keeps it again once it fits', async () => {
    const { area } = createFakeDraftArea();
    const drafts = createDraftStorage(area, 1_000);
    drafts.write(1, 'x'.repeat(600));
    drafts.write(2, 'add a mug');
    await drafts.settled();
    drafts.write(2, `add a mug ${'and a pot '.repeat(40)}`);
    await drafts.settled();
    expect(await drafts.read(2)).toBe('');
    expect(await drafts.read(1)).toBe('x'.repeat(600));

    drafts.write(1, '');
    drafts.write(2, `add a mug ${'and a pot '.repeat(40)}`);
    await drafts.settled();
    expect(await drafts.read(2)).toBe(`add a mug ${'and a pot '.repeat(40)}`);
  });

  it('keeps no older draft in place of one storage refused to write (full), and says nothing', async () => {
    const { area } = createFakeDraftArea();
    const drafts = createDraftStorage(area);
    drafts.write(1, 'add a mug');
    await drafts.settled();
    const full = createDraftStorage({ ...area, set: () => Promise.reject(new Error('Session storage quota bytes exceeded.')) });
    full.write(1, 'add a mug and a teapot');
    await full.settled();
    expect(await drafts.read(1)).toBe('');
  });

  it('reads nothing, without throwing, where storage cannot be read or holds something else', async () => {
    const { area, items } = createFakeDraftArea();
    items.set('panelDraft:1', { text: 'not a string' });
    const drafts = createDraftStorage({ ...area, get: (key) => (key === 'panelDraft:2' ? Promise.reject(new Error('gone')) : area.get(key)) });
    expect(await drafts.read(1)).toBe('');
    expect(await drafts.read(2)).toBe('');
  });

  it('goes with its tab: removed when the tab closes, moved when a prerendered page replaces it', async () => {
    const { area, items } = createFakeDraftArea();
    const drafts = createDraftStorage(area);
    drafts.write(1, 'add a mug');
    drafts.write(2, 'a pot of green tea');
    await drafts.settled();
    const tabs = storedDraftsOfTabs(area);
    await tabs.tabClosed(1);
    await tabs.tabReplaced(2, 9);
    expect(Object.fromEntries(items)).toEqual({ 'panelDraft:9': 'a pot of green tea' });
    // A panel that follows the tab wrote under the new id first: its newer draft stays.
    drafts.write(3, 'two pots');
    drafts.write(10, 'two pots of tea');
    await drafts.settled();
    await tabs.tabReplaced(3, 10);
    expect(Object.fromEntries(items)).toEqual({ 'panelDraft:9': 'a pot of green tea', 'panelDraft:10': 'two pots of tea' });
  });

  it('keeps, when the worker starts, only the drafts of tabs still open (a panel put a request back into a tab that had closed)', async () => {
    const { area, items } = createFakeDraftArea();
    items.set('agentSession:4', { turns: [] });
    for (const tabId of [3, 4, 5]) items.set(`panelDraft:${tabId}`, `draft of ${tabId}`);
    await storedDraftsOfTabs(area).keepOnlyOpenTabs(async () => [4, 9]);
    expect(Object.fromEntries(items)).toEqual({ 'agentSession:4': { turns: [] }, 'panelDraft:4': 'draft of 4' });
  });
});
