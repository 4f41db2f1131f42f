import { storage } from 'wxt/utils/storage';
import { tabEntrySchema, type TabEntry } from './frame-tools';
import type { RegistryStorage } from './tab-tool-registry';
import { jsonBytes } from '../text/utf8-length';

const keyPrefix = 'webmcp-tab-tools:';

/**
 * Bytes of tools the registry may keep in session storage, all tabs together. Session storage
 * holds 10 MB for everything and conversations keep 8 MB of it (see storedSessionsBudget): a
 * page with huge tools must not fill the rest, or every later write would fail.
 */
const savedToolsBudget = 1_500_000;

/**
 * Keeps each tab's tools in session storage (gone when the browser closes, readable by no
 * content script), one key per tab, so a restarted service worker finds them again. A tab whose
 * tools do not fit the budget is kept without them: after a restart it is asked to report again.
 *
 * An entry is stored as its JSON text: the browser copies one long string into storage many times
 * faster than the thousands of small objects of a page's schemas (500 tools of 20 fields: about
 * 30 ms against 490 ms a write). Earlier builds stored the objects; no build reads another's,
 * since updating or reloading the extension clears session storage.
 */
export function createSessionRegistryStorage(budget = savedToolsBudget): RegistryStorage {
  const savedBytes = new Map<number, number>();
  return {
    async load() {
      const saved = await storage.snapshot('session');
      const tabs = new Map<number, TabEntry>();
      for (const [key, value] of Object.entries(saved)) {
        if (!key.startsWith(keyPrefix) || typeof value !== 'string') continue;
        const parsed = tabEntrySchema().safeParse(parseJson(value));
        const tabId = Number(key.slice(keyPrefix.length));
        if (!parsed.success || !Number.isInteger(tabId)) continue;
        tabs.set(tabId, parsed.data);
        savedBytes.set(tabId, jsonBytes(value));
      }
      return tabs;
    },
    async save(tabId, entry) {
      const key = `session:${keyPrefix}${tabId}` as const;
      if (!entry) {
        savedBytes.delete(tabId);
        await storage.removeItem(key);
        return;
      }
      let others = 0;
      for (const [otherTabId, bytes] of savedBytes) if (otherTabId !== tabId) others += bytes;
      const whole = JSON.stringify(entry);
      // What storage counts: the text written as JSON, its quotes escaped.
      const wholeBytes = jsonBytes(whole);
      const [text, bytes] = others + wholeBytes <= budget ? [whole, wholeBytes] : withoutTools(entry);
      savedBytes.set(tabId, bytes);
      await storage.setItem(key, text);
    },
  };
}

export const sessionRegistryStorage = createSessionRegistryStorage();

function withoutTools(entry: TabEntry): [string, number] {
  const text = JSON.stringify({ ...entry, frames: {} });
  return [text, jsonBytes(text)];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
