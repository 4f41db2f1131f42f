import type { ToolsReport } from '../messaging/protocol';
import { reportedToolSchema, type DroppedToolReport, type ReportedTool } from '../webmcp/reported-tool';
import { displayName } from '../webmcp/sanitize-tool';
import type { TabEntry } from './frame-tools';
import { mergeTabTools } from './merge-tab-tools';
import type { TabTools } from './types';

/** Where the registry keeps its tabs between service-worker restarts. */
export interface RegistryStorage {
  load(): Promise<Map<number, TabEntry>>;
  save(tabId: number, entry: TabEntry | undefined): Promise<void>;
}

export type TabToolsListener = (tabId: number, tools: TabTools | undefined) => void;

/** The frame a report came from, as the browser names it. */
export interface ReportSender {
  tabId: number;
  frameId: number;
  url: string;
  origin: string;
  tabUrl?: string;
}

/**
 * The tools of every tab, by frame. Each change is saved (the service worker may be stopped at
 * any moment) and announced to listeners. Changes apply one at a time, in arrival order, and
 * only once the saved tabs are loaded (so a change that woke the worker is not undone by them).
 */
export class TabToolRegistry {
  private tabs = new Map<number, TabEntry>();
  private readonly listeners = new Set<TabToolsListener>();
  private queue: Promise<unknown>;

  constructor(private readonly storage: RegistryStorage) {
    this.queue = storage.load().then(
      (loaded) => void (this.tabs = loaded),
      () => undefined,
    );
  }

  /** A frame's new list replaces its old one; each tool is checked again on the way in. */
  report(sender: ReportSender, report: ToolsReport): Promise<void> {
    return this.serial(() => {
      const entry = this.tabs.get(sender.tabId) ?? { frames: {} };
      const checked = recheckTools(report.tools, sender.origin);
      const frame = {
        url: sender.url,
        origin: sender.origin,
        ...(report.topOrigin === undefined ? {} : { topOrigin: sender.frameId === 0 ? sender.origin : report.topOrigin }),
        updatedAt: Date.now(),
        tools: checked.tools,
        dropped: [...report.dropped, ...checked.dropped],
      };
      return this.commit(sender.tabId, { tabUrl: sender.tabUrl ?? entry.tabUrl, frames: { ...entry.frames, [sender.frameId]: frame } });
    });
  }

  frameGone(tabId: number, frameId: number): Promise<void> {
    return this.serial(() => {
      const entry = this.tabs.get(tabId);
      if (!entry || !(frameId in entry.frames)) return;
      const frames = { ...entry.frames };
      delete frames[frameId];
      return this.commit(tabId, { ...entry, frames });
    });
  }

  /**
   * A new document committed in a frame (`committedAt` as the browser stamps it): what the frame's
   * old document reported is gone, and with a new top document, every frame's. This does not wait
   * for the old document's own goodbye, which a crash, a discard or a stalled page never sends.
   * A report that came after the commit belongs to the new document and stays.
   */
  documentCommitted(tabId: number, frameId: number, committedAt: number): Promise<void> {
    return this.serial(() => {
      const entry = this.tabs.get(tabId);
      if (!entry) return;
      const frames = Object.fromEntries(
        Object.entries(entry.frames).filter(
          ([id, frame]) => !((frameId === 0 || Number(id) === frameId) && frame.updatedAt < committedAt),
        ),
      );
      if (Object.keys(frames).length === Object.keys(entry.frames).length) return;
      return this.commit(tabId, { ...entry, frames });
    });
  }

  removeTab(tabId: number): Promise<void> {
    return this.serial(() => (this.tabs.has(tabId) ? this.commit(tabId, undefined) : undefined));
  }

  get(tabId: number): Promise<TabTools | undefined> {
    return this.serial(() => {
      const entry = this.tabs.get(tabId);
      return entry ? mergeTabTools(tabId, entry) : undefined;
    });
  }

  tabIds(): Promise<number[]> {
    return this.serial(() => [...this.tabs.keys()]);
  }

  onChange(listener: TabToolsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private serial<T>(change: () => Promise<T> | T): Promise<T> {
    const next = this.queue.then(change);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async commit(tabId: number, entry: TabEntry | undefined): Promise<void> {
    if (entry && Object.keys(entry.frames).length > 0) this.tabs.set(tabId, entry);
    else this.tabs.delete(tabId);
    const saved = this.tabs.get(tabId);
    await this.storage.save(tabId, saved).catch(() => undefined);
    const merged = saved ? mergeTabTools(tabId, saved) : undefined;
    for (const listener of this.listeners) {
      try {
        listener(tabId, merged);
      } catch (error) {
        console.error('A tab-tools listener failed:', error);
      }
    }
  }
}

/** The background's own check of each reported tool; a tool that fails is dropped, not the report. */
function recheckTools(tools: readonly unknown[], origin: string): { tools: ReportedTool[]; dropped: DroppedToolReport[] } {
  const checked: ReportedTool[] = [];
  const dropped: DroppedToolReport[] = [];
  for (const tool of tools) {
    const parsed = reportedToolSchema.safeParse(tool);
    if (parsed.success) checked.push({ ...parsed.data, origin });
    else dropped.push({ name: displayName((tool as { name?: unknown } | null)?.name), reason: 'it failed the background check' });
  }
  return { tools: checked, dropped };
}
