import type { ToolsReport } from '../messaging/protocol';
import { isSandboxedDocument, sandboxedReason } from '../webmcp/frame-tools-permission';
import { toolLimits } from '../webmcp/tool-limits';
import { fitFrameToTab } from './fit-frame-to-tab';
import type { FrameTools, TabEntry } from './frame-tools';
import { mergeTabTools } from './merge-tab-tools';
import { recheckTools } from './recheck-tools';
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
  /** The tab's title as the browser told it with the report. */
  tabTitle?: string;
  /** The sending document (Chrome 106+): a frame keeps its id from one document to the next. */
  documentId?: string;
}

/** A frame's report that waits its turn; a newer report of the frame takes its place. */
interface WaitingReport {
  sender: ReportSender;
  report: ToolsReport;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The tools of every tab, by frame. Each change is handed to the storage, since the service worker
 * may be stopped at any moment (the background's writes a tab whose tools keep changing only every
 * so often: see `coalesceRegistrySaves`), and announced to listeners. A tab's changes apply one at
 * a time, in arrival order, on the tab's own queue (so a busy tab never delays another), and only
 * once the saved tabs are loaded (so a change that woke the worker is not undone by them).
 */
export class TabToolRegistry {
  private tabs = new Map<number, TabEntry>();
  private readonly listeners = new Set<TabToolsListener>();
  private readonly loaded: Promise<void>;
  private readonly queues = new Map<number, Promise<void>>();
  /** By tab, then frame: a frame that reports faster than its tab applies keeps one report waiting, not a queue. */
  private readonly waiting = new Map<number, Map<number, WaitingReport>>();
  /**
   * By tab: frames inside the page that reported while the tab had no room left for another frame
   * (`innerFrameEntriesPerTab`), so it keeps nothing of them. Bounded, and held only while the
   * worker runs: they are asked to report again when room frees.
   */
  private readonly turnedAway = new Map<number, Set<number>>();

  /**
   * `askAgain` asks frames of a tab to report again: those whose tools were left out for want of
   * room, and those the tab kept nothing of, once a frame leaving makes room (they report only
   * when their own tools change).
   */
  constructor(
    private readonly storage: RegistryStorage,
    private readonly askAgain: (tabId: number, frameIds: number[]) => void = () => {},
  ) {
    this.loaded = storage.load().then(
      (loaded) => void (this.tabs = loaded),
      () => undefined,
    );
  }

  /**
   * A frame's new list replaces its old one; each tool is checked again on the way in, and the
   * tab's caps apply. Resolves once applied, or once a newer report of the frame replaced it.
   */
  report(sender: ReportSender, report: ToolsReport): Promise<void> {
    return new Promise((resolve, reject) => {
      const frames = this.waiting.get(sender.tabId) ?? new Map<number, WaitingReport>();
      this.waiting.set(sender.tabId, frames);
      const waiting = frames.get(sender.frameId);
      if (waiting) {
        waiting.resolve();
        Object.assign(waiting, { sender, report, resolve, reject });
        return;
      }
      const slot: WaitingReport = { sender, report, resolve, reject };
      frames.set(sender.frameId, slot);
      this.applyInTurn(slot);
    });
  }

  /**
   * A frame's document said goodbye. Where both are known, only that document's tools go: the
   * goodbye of a document the frame already left (it may arrive after the next one's report, from
   * another process) leaves the next one's tools alone.
   */
  frameGone(tabId: number, frameId: number, documentId?: string): Promise<void> {
    this.stopWaiting(tabId, frameId);
    return this.serial(tabId, () => {
      this.turnedAway.get(tabId)?.delete(frameId);
      const entry = this.tabs.get(tabId);
      const frame = entry?.frames[frameId];
      if (!entry || !frame || !sameDocument(frame.documentId, documentId)) return;
      const frames = { ...entry.frames };
      delete frames[frameId];
      this.askCutFramesAgain(tabId, frames);
      return this.commit(tabId, { ...entry, frames });
    });
  }

  /**
   * A new document committed in a frame (`committedAt` as the browser stamps it, `documentId` where
   * the browser names it): what the frame's old document reported is gone, and with a new top
   * document, every frame's. This does not wait for the old document's own goodbye, which a crash,
   * a discard or a stalled page never sends. A report of the new document, which may come before
   * the commit event, stays: the frame's own is known by its document where both are named, the
   * others (and any, without names) by arriving after the commit.
   */
  documentCommitted(tabId: number, frameId: number, committedAt: number, documentId?: string): Promise<void> {
    this.stopWaiting(tabId, frameId === 0 ? undefined : frameId);
    return this.serial(tabId, () => {
      if (frameId === 0) this.turnedAway.delete(tabId);
      else this.turnedAway.get(tabId)?.delete(frameId);
      const entry = this.tabs.get(tabId);
      if (!entry) return;
      const outdated = ([id, frame]: [string, FrameTools]): boolean => {
        if (Number(id) === frameId && documentId !== undefined && frame.documentId !== undefined) return frame.documentId !== documentId;
        return (frameId === 0 || Number(id) === frameId) && frame.updatedAt < committedAt;
      };
      const frames = Object.fromEntries(Object.entries(entry.frames).filter((frame) => !outdated(frame)));
      if (Object.keys(frames).length === Object.keys(entry.frames).length) return;
      this.askCutFramesAgain(tabId, frames);
      return this.commit(tabId, { ...entry, frames });
    });
  }

  /** Asks the frames that may fit now to report again: those cut, and as many turned away as there is room for. */
  private askCutFramesAgain(tabId: number, frames: Record<string, FrameTools>): void {
    const ask = Object.entries(frames).flatMap(([id, frame]) => (frame.cut ? [Number(id)] : []));
    const turnedAway = this.turnedAway.get(tabId);
    if (turnedAway) {
      let room = toolLimits.innerFrameEntriesPerTab - Object.keys(frames).filter((id) => id !== '0').length;
      for (const frameId of turnedAway) {
        if (room-- <= 0) break;
        turnedAway.delete(frameId);
        ask.push(frameId);
      }
      if (turnedAway.size === 0) this.turnedAway.delete(tabId);
    }
    if (ask.length > 0) this.askAgain(tabId, ask);
  }

  removeTab(tabId: number): Promise<void> {
    this.stopWaiting(tabId);
    return this.serial(tabId, () => {
      this.turnedAway.delete(tabId);
      return this.tabs.has(tabId) ? this.commit(tabId, undefined) : undefined;
    });
  }

  get(tabId: number): Promise<TabTools | undefined> {
    return this.serial(tabId, () => {
      const entry = this.tabs.get(tabId);
      return entry ? mergeTabTools(tabId, entry) : undefined;
    });
  }

  tabIds(): Promise<number[]> {
    return this.loaded.then(() => [...this.tabs.keys()]);
  }

  onChange(listener: TabToolsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(sender: ReportSender, report: ToolsReport): Promise<void> {
    const entry = this.tabs.get(sender.tabId) ?? { frames: {} };
    // The content script refuses a sandboxed document's tools itself; the background makes sure.
    const refusal = isSandboxedDocument(sender.origin, sender.url) ? sandboxedReason(sender.frameId === 0) : undefined;
    const checked = recheckTools(report.tools, sender.origin, refusal);
    const fitted = fitFrameToTab(entry.frames, sender.frameId, checked.tools, [...report.dropped, ...checked.dropped]);
    if (fitted === null) {
      this.turnAway(sender.tabId, sender.frameId);
      return Promise.resolve();
    }
    this.turnedAway.get(sender.tabId)?.delete(sender.frameId);
    const frame = {
      url: sender.url,
      origin: sender.origin,
      ...(sender.documentId === undefined ? {} : { documentId: sender.documentId }),
      ...(report.topOrigin === undefined ? {} : { topOrigin: sender.frameId === 0 ? sender.origin : report.topOrigin }),
      updatedAt: Date.now(),
      ...fitted,
    };
    const tabTitle = sender.tabTitle ?? entry.tabTitle;
    return this.commit(sender.tabId, {
      tabUrl: sender.tabUrl ?? entry.tabUrl,
      ...(tabTitle === undefined ? {} : { tabTitle }),
      frames: { ...entry.frames, [sender.frameId]: frame },
    });
  }

  /**
   * Applies a waiting report in its tab's turn, by then the frame's latest. Only the slot is held
   * meanwhile, so a replaced report's message can be freed.
   */
  private applyInTurn(slot: WaitingReport): void {
    const { tabId, frameId } = slot.sender;
    this.serial(tabId, () => {
      if (this.waiting.get(tabId)?.get(frameId) === slot) this.stopWaiting(tabId, frameId);
      return this.apply(slot.sender, slot.report);
    }).then(
      () => slot.resolve(),
      (error: unknown) => slot.reject(error),
    );
  }

  private turnAway(tabId: number, frameId: number): void {
    const turnedAway = this.turnedAway.get(tabId) ?? new Set<number>();
    if (turnedAway.size < maxTurnedAwayPerTab) turnedAway.add(frameId);
    this.turnedAway.set(tabId, turnedAway);
  }

  /** Later reports of the frame (or of every frame of the tab) queue after what comes next. */
  private stopWaiting(tabId: number, frameId?: number): void {
    const frames = this.waiting.get(tabId);
    if (frameId === undefined) frames?.clear();
    else frames?.delete(frameId);
    if (frames?.size === 0) this.waiting.delete(tabId);
  }

  private serial<T>(tabId: number, change: () => Promise<T> | T): Promise<T> {
    const next = (this.queues.get(tabId) ?? this.loaded).then(change);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(tabId, tail);
    void tail.then(() => {
      if (this.queues.get(tabId) === tail) this.queues.delete(tabId);
    });
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

/** Frames a tab remembers having turned away; a page making more loses only the asking again. */
const maxTurnedAwayPerTab = 1_000;

/** Whether a goodbye is from the document the registry holds; unnamed documents (older browsers) always match. */
function sameDocument(stored: string | undefined, sender: string | undefined): boolean {
  return stored === undefined || sender === undefined || stored === sender;
}
