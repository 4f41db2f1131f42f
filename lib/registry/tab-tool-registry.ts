import type { ToolsReport } from '../messaging/protocol';
import { isSandboxedDocument, sandboxedReason } from '../webmcp/frame-tools-permission';
import { announceTabTools, type TabToolsListener } from './announce-tab-tools';
import { fitFrameToTab } from './fit-frame-to-tab';
import type { FrameTools, TabEntry } from './frame-tools';
import { framesAfterCommit } from './frames-after-commit';
import { mergeTabTools } from './merge-tab-tools';
import { recheckTools } from './recheck-tools';
import type { ReportSender } from './report-sender';
import { sameFrameReport } from './same-frame-report';
import { tabEntryWithReport } from './tab-entry-with-report';
import { TabQueues } from './tab-queues';
import { TurnedAwayFrames } from './turned-away-frames';
import type { TabTools } from './types';
import { WaitingReports, type WaitingReport } from './waiting-reports';


/** Where the registry keeps its tabs between service-worker restarts. */
export interface RegistryStorage {
  load(): Promise<Map<number, TabEntry>>;
  save(tabId: number, entry: TabEntry | undefined): Promise<void>;
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
  private readonly queues: TabQueues;
  private readonly waiting = new WaitingReports();
  private readonly turnedAway = new TurnedAwayFrames();
  // The frames as this worker applied their reports: one that reports the same again is no change.
  // A frame loaded from storage is still announced at its next report, so a worker that woke (the
  // badge's counts gone with the last one) hears every tab again.
  private readonly heard = new WeakSet<FrameTools>();

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
    this.queues = new TabQueues(this.loaded);
  }

  /**
   * A frame's new list replaces its old one; each tool is checked again on the way in, and the
   * tab's caps apply. Resolves once applied, or once a newer report of the frame replaced it.
   */
  report(sender: ReportSender, report: ToolsReport): Promise<void> {
    return new Promise((resolve, reject) => {
      const slot = this.waiting.hold(sender, report, resolve, reject);
      if (slot) this.applyInTurn(slot);
    });
  }

  /**
   * A frame's document said goodbye. Where both are known, only that document's tools go: the
   * goodbye of a document the frame already left (it may arrive after the next one's report, from
   * another process) leaves the next one's tools alone.
   */
  frameGone(tabId: number, frameId: number, documentId?: string): Promise<void> {
    this.waiting.stop(tabId, frameId);
    return this.queues.serial(tabId, () => {
      this.turnedAway.forget(tabId, frameId);
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
   * the commit event, stays (see `framesAfterCommit`).
   */
  documentCommitted(tabId: number, frameId: number, committedAt: number, documentId?: string): Promise<void> {
    // A new top document ends what every frame of the tab was waiting for, or was turned away for.
    const frame = frameId === 0 ? undefined : frameId;
    this.waiting.stop(tabId, frame);
    return this.queues.serial(tabId, () => {
      this.turnedAway.forget(tabId, frame);
      const entry = this.tabs.get(tabId);
      if (!entry) return;
      const frames = framesAfterCommit(entry.frames, frameId, committedAt, documentId);
      if (Object.keys(frames).length === Object.keys(entry.frames).length) return;
      this.askCutFramesAgain(tabId, frames);
      return this.commit(tabId, { ...entry, frames });
    });
  }

  /** Asks the frames that may fit now to report again: those cut, and as many turned away as there is room for. */
  private askCutFramesAgain(tabId: number, frames: Record<string, FrameTools>): void {
    const ask = Object.entries(frames).flatMap(([id, frame]) => (frame.cut ? [Number(id)] : []));
    ask.push(...this.turnedAway.takeAsRoomAllows(tabId, frames));
    if (ask.length > 0) this.askAgain(tabId, ask);
  }

  /** The documents the tab's tools come from, by frame, where the browser named them. */
  documents(tabId: number): Promise<Array<{ frameId: number; documentId: string }>> {
    return this.queues.serial(tabId, () =>
      Object.entries(this.tabs.get(tabId)?.frames ?? {}).flatMap(([frameId, frame]) =>
        frame.documentId === undefined ? [] : [{ frameId: Number(frameId), documentId: frame.documentId }],
      ),
    );
  }

  removeTab(tabId: number): Promise<void> {
    this.waiting.stop(tabId);
    return this.queues.serial(tabId, () => {
      this.turnedAway.forget(tabId);
      return this.tabs.has(tabId) ? this.commit(tabId, undefined) : undefined;
    });
  }

  get(tabId: number): Promise<TabTools | undefined> {
    return this.queues.serial(tabId, () => {
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
      this.turnedAway.add(sender.tabId, sender.frameId);
      return Promise.resolve();
    }
    this.turnedAway.forget(sender.tabId, sender.frameId);
    const next = tabEntryWithReport(entry, sender, report, fitted, Date.now());
    const previous = entry.frames[sender.frameId];
    const same = previous !== undefined && this.heard.has(previous) && sameFrameReport(entry, next, sender.frameId);
    this.heard.add(next.frames[sender.frameId]!);
    // Saved all the same: when the frame last reported decides what a commit keeps (see framesAfterCommit).
    return this.commit(sender.tabId, next, !same);
  }

  /**
   * Applies a waiting report in its tab's turn, by then the frame's latest. Only the slot is held
   * meanwhile, so a replaced report's message can be freed.
   */
  private applyInTurn(slot: WaitingReport): void {
    const { tabId, frameId } = slot.sender;
    this.queues.serial(tabId, () => {
      this.waiting.turnCame(tabId, frameId, slot);
      return this.apply(slot.sender, slot.report);
    }).then(
      () => slot.resolve(),
      (error: unknown) => slot.reject(error),
    );
  }

  private async commit(tabId: number, entry: TabEntry | undefined, announce = true): Promise<void> {
    if (entry && Object.keys(entry.frames).length > 0) this.tabs.set(tabId, entry);
    else this.tabs.delete(tabId);
    const saved = this.tabs.get(tabId);
    await this.storage.save(tabId, saved).catch(() => undefined);
    if (announce) announceTabTools(this.listeners, tabId, saved ? mergeTabTools(tabId, saved) : undefined);
  }
}

/** Whether a goodbye is from the document the registry holds; unnamed documents (older browsers) always match. */
function sameDocument(stored: string | undefined, sender: string | undefined): boolean {
  return stored === undefined || sender === undefined || stored === sender;
}
