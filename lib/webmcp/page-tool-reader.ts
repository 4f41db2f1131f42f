import { readProperty, readToolName } from './adapters/tool-adapter';
import { CheckedToolCache } from './checked-tool-cache';
import { logFailedReading } from './log-failed-reading';
import { documentLanguage, type DroppedToolReport, type ReportedTool } from './reported-tool';
import type { PageToolSource } from './page-tool-source';
import { sanitizeTools, type OfferedTool } from './sanitize-tools';
import { toolLimits } from './tool-limits';
import { waitAfterWork, type WorkDone } from './wait-after-work';

export interface FrameReport {
  tools: ReportedTool[];
  dropped: DroppedToolReport[];
}

export interface ReaderOptions {
  sources: readonly PageToolSource[];
  origin: string;
  onReport(tools: FrameReport): void;
  /**
   * Quiet time before a change is read; 100 ms like Chrome's own extensions, or longer after a
   * reading that took long (see waitAfterWork).
   */
  debounceMs?: number;
}

/**
 * Follows a frame's tools from all its sources (the first source wins a name), checks them with
 * `sanitizeTools`, and reports the list whenever it changes, at most once per quiet period.
 * A frame that never had tools stays silent: most pages have none, and the worker may sleep.
 */
export class PageToolReader {
  private last: FrameReport | undefined;
  private reported = false;
  /** When the last reading ended, and how long it took. */
  private lastRead: WorkDone = { endedAt: 0, tookMs: 0 };
  private readonly checked = new CheckedToolCache(toolLimits.toolsPerFrame * 2);
  private owners = new Map<string, PageToolSource>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private queue = Promise.resolve();
  private stopped = false;
  private readonly unwatch: Array<() => void>;

  constructor(private readonly options: ReaderOptions) {
    this.unwatch = options.sources.map((source) => source.watch(() => this.schedule()));
    this.schedule();
  }

  /** Reads every source now and reports, even when nothing changed. */
  reportNow(): Promise<void> {
    return this.report(true);
  }

  /** The source that offers `name` in the last reading (reading again if it is not there). */
  async sourceOf(name: string): Promise<PageToolSource | undefined> {
    if (!this.owners.has(name)) await this.read();
    return this.owners.get(name);
  }

  /** Reads and reports no more: the extension this script belonged to is gone. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const unwatch of this.unwatch) unwatch();
  }

  /** Whether a list was ever reported. */
  hasReported(): boolean {
    return this.reported;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.stopped) return;
    // Readings take at most a fifth of the page's main thread while its tools keep changing.
    const wait = waitAfterWork(this.options.debounceMs ?? 100, this.lastRead, performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.report(false).catch(logFailedReading);
    }, wait);
  }

  /** One reading at a time, so reports leave in the order the page changed. */
  private report(force: boolean): Promise<void> {
    const reading = this.queue.then(() => this.readAndReport(force));
    // A reading that failed (a bug) is its caller's to hear of; the readings after it still run.
    this.queue = reading.catch(() => undefined);
    return reading;
  }

  private async readAndReport(force: boolean): Promise<void> {
    if (this.stopped) return;
    const startedAt = performance.now();
    try {
      const frameTools = await this.read();
      if (this.stopped) return;
      const empty = frameTools.tools.length === 0 && frameTools.dropped.length === 0;
      if ((empty && !this.reported) || (!force && this.last && sameReport(frameTools, this.last))) return;
      this.last = frameTools;
      this.reported = true;
      this.options.onReport(frameTools);
    } finally {
      const endedAt = performance.now();
      this.lastRead = { endedAt, tookMs: endedAt - startedAt };
    }
  }

  private async read(): Promise<FrameReport> {
    const offered: OfferedTool[] = [];
    const refused: DroppedToolReport[] = [];
    const owners = new Map<string, PageToolSource>();
    const descriptions = new Map<string, unknown>();
    const offeredAt = new Map<string, number>();
    for (const source of this.options.sources) {
      const listing = await source.list().catch(() => ({ offered: [], refused: [] }));
      for (const entry of listing.offered) {
        const name = readToolName(entry.tool);
        const taken = name !== undefined && owners.has(name);
        // The same tool seen twice (a page's shim that hands its tools on to the browser's API)
        // is one tool, not a clash of names to tell the author about.
        const again = taken && owners.get(name) !== source && descriptions.get(name) === readProperty(entry.tool, 'description');
        if (again && formListedByPolyfill(offered[offeredAt.get(name)!], entry)) {
          // A polyfill that reads `<form toolname>` itself lists the form as a tool of its own: it
          // is read and run as the extension's own form reader does where no polyfill is (the
          // form's own checks, a person's submit, the page its post loads), as the browser's are.
          offered[offeredAt.get(name)!] = entry;
          owners.set(name, source);
          continue;
        }
        if (taken && (source.yieldsToEarlier || again)) continue;
        if (name !== undefined && !taken) {
          owners.set(name, source);
          descriptions.set(name, readProperty(entry.tool, 'description'));
          offeredAt.set(name, offered.length);
        }
        offered.push(entry);
      }
      refused.push(...listing.refused);
    }
    this.owners = owners;
    const checked = sanitizeTools(offered, this.options.origin, this.checked, typeof document === 'undefined' ? undefined : documentLanguage(document));
    return { tools: checked.tools, dropped: [...refused, ...checked.dropped] };
  }
}

/** Whether `form`, a `<form toolname>` the extension reads, is what a polyfill listed as `listed`. */
function formListedByPolyfill(listed: OfferedTool | undefined, form: OfferedTool): boolean {
  return listed?.source === 'polyfill' && form.source === 'declarative';
}

/** Whether two readings say the same; a tool checked once (see CheckedToolCache) is the same object. */
function sameReport(next: FrameReport, last: FrameReport): boolean {
  const same = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, at) => item === b[at] || JSON.stringify(item) === JSON.stringify(b[at]));
  return same(next.tools, last.tools) && same(next.dropped, last.dropped);
}
