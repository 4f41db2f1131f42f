import { sessionStorageBytes } from '../text/session-storage-bytes';

/**
 * What was typed in a tab's request box and not sent, kept in session storage so that it outlives
 * the side panel (closed and opened again, the panel finds it in the box) but not the browser, nor
 * the tab: the service worker removes a closed tab's (`draftKey`). One key per tab,
 * `panelDraft:<tab id>`, so the panels of two windows never write over each other's.
 */
export const draftPrefix = 'panelDraft:';

const draftKey = (tabId: number) => `${draftPrefix}${tabId}`;

/**
 * Bytes all tabs' drafts may take together, as Chrome counts them (`sessionStorageBytes`): part of
 * what conversations (8 MB) and tools (1.5 MB) leave of session storage's 10 MB. A draft that
 * does not fit is not kept: it stays in the open panel's box only. So is every draft in a Chrome
 * older than 130, which cannot list storage's keys (`getKeys`) to count the others.
 */
const storedDraftsBudget = 400_000;

/** The slice of `storage.session` the drafts are kept with. */
export interface DraftArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
  getKeys(): Promise<string[]>;
  getBytesInUse(keys: string[]): Promise<number>;
}

export interface DraftStorage {
  /** The draft kept for the tab, '' where none (or where storage cannot be read). */
  read(tabId: number): Promise<string>;
  /**
   * Keeps `text` as the tab's draft ('' forgets it). Writes go out one at a time, each tab's last
   * text only: a text typed over before its turn came is never written.
   */
  write(tabId: number, text: string): void;
  /** Resolves once every write asked for so far is done (for tests). */
  settled(): Promise<void>;
}

export function createDraftStorage(area: DraftArea, budget = storedDraftsBudget): DraftStorage {
  const wanted = new Map<number, string>();
  let writing: Promise<void> = Promise.resolve();

  const writeOne = async (tabId: number, text: string): Promise<void> => {
    const key = draftKey(tabId);
    if (text === '') return area.remove(key);
    const others = (await area.getKeys()).filter((other) => other.startsWith(draftPrefix) && other !== key);
    const othersBytes = others.length > 0 ? await area.getBytesInUse(others) : 0;
    if (othersBytes + sessionStorageBytes({ [key]: text }) > budget) throw new RangeError('Over the drafts budget');
    return area.set({ [key]: text });
  };
  const drain = async (): Promise<void> => {
    for (const [tabId, text] of wanted) {
      wanted.delete(tabId);
      // A draft that could not be kept (past the budget, storage full) is still in the box: nothing
      // to say, nothing lost. An older one kept for the tab would come back in its place: it goes.
      await writeOne(tabId, text).catch(() => area.remove(draftKey(tabId)).catch(() => {}));
    }
  };

  return {
    async read(tabId) {
      const key = draftKey(tabId);
      const kept = await area.get(key).catch(() => ({}) as Record<string, unknown>);
      const text = kept[key];
      return typeof text === 'string' ? text : '';
    },
    write(tabId, text) {
      const idle = wanted.size === 0;
      wanted.delete(tabId);
      wanted.set(tabId, text);
      if (idle) writing = writing.then(drain);
    },
    settled: () => writing,
  };
}

/**
 * The service worker's part: a closed tab's draft goes; a replaced tab's (discarded, or a
 * prerendered page swapped in) follows it to its new id. At each start it removes the drafts of
 * tabs no longer open: a panel that lost its connection puts a request back in its tab's draft,
 * and that tab may have closed meanwhile.
 */
export const storedDraftsOfTabs = (area: Pick<DraftArea, 'get' | 'set' | 'remove' | 'getKeys'>) => ({
  /** `openTabIds` is asked after the keys are listed, so a tab opened meanwhile keeps its new draft. */
  async keepOnlyOpenTabs(openTabIds: () => Promise<number[]>): Promise<void> {
    const keys = (await area.getKeys()).filter((key) => key.startsWith(draftPrefix));
    if (keys.length === 0) return;
    const open = new Set((await openTabIds()).map(draftKey));
    for (const key of keys) if (!open.has(key)) await area.remove(key);
  },
  async tabClosed(tabId: number): Promise<void> {
    await area.remove(draftKey(tabId));
  },
  async tabReplaced(removedTabId: number, addedTabId: number): Promise<void> {
    const [key, added] = [draftKey(removedTabId), draftKey(addedTabId)];
    const text = (await area.get(key))[key];
    // A panel that follows the tab may keep its draft under the new id already: that one is newer.
    const newer = (await area.get(added))[added];
    if (typeof text === 'string' && newer === undefined) await area.set({ [added]: text });
    await area.remove(key);
  },
});
