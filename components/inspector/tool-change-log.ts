// Apart from the inspector's model: a reload's tools go and come a moment apart, and telling that takes a timer and state of its own.
import type { Signal } from '@preact/signals';
import { diffToolLists, isAnotherDocument, type ToolChange } from '@/lib/devtools/diff-tool-lists';
import type { PageTool, TabTools } from '@/lib/registry/types';

/** How many changes the log keeps, the newest: it counts them all. */
const changeLogLength = 200;
/** How long tools the page took away all at once wait for the next page's before they are logged as removed. */
const heldRemovalMs = 2_000;

/** Writes what changed between listings of a tab's tools into `changes`, newest first. */
export class ToolChangeLog {
  private heldRemoval?: { tools: readonly PageTool[]; url: string | undefined; at: number; timer: ReturnType<typeof setTimeout> };
  /**
   * The top frame's document last listed, with its address: a page listed later from another
   * document came after a reload or a navigation, though a listing without tools (or none at all)
   * came between.
   */
  private lastPage?: { url: string; documentId: string };

  /** `changes`: the newest kept; `count`: how many there were in all, kept or not. */
  constructor(
    private readonly changes: Signal<ToolChange[]>,
    private readonly count: Signal<number>,
  ) {}

  /**
   * Logs what changed from `previous` to `next`. A reload or a navigation is one line, then what
   * the new page offers differently: the old page's tools go all at once a moment before the new
   * page's come, so tools taken away all at once wait a moment for them (see heldRemovalMs).
   */
  logListChange(previous: TabTools | null, next: TabTools | null | undefined): void {
    const after = next?.tools ?? [];
    const now = Date.now();
    const page = this.lastPage ?? (previous ? topDocumentOf(previous) : undefined);
    const newPage = next ? topDocumentOf(next) : undefined;
    if (newPage) this.lastPage = newPage;
    // Another document than the last listed: the page reloaded or went elsewhere.
    const pageChanged = next !== null && next !== undefined && page !== undefined && newPage !== undefined && newPage.documentId !== page.documentId;
    const held = this.heldRemoval;
    if (held) {
      // The next page may list no tools (yet): its document says the old page's went with it.
      if (after.length === 0 && !pageChanged) return;
      this.dropHeldRemoval();
      if (pageChanged || isAnotherDocument(held.tools, after)) {
        // Newest first: the page's line heads what its page changed.
        this.logChanges(diffToolLists(held.tools, after, now));
        this.logPageChange(held.url, next!);
      } else {
        this.logChanges(diffToolLists(held.tools, [], held.at));
        this.logChanges(diffToolLists([], after, now));
      }
      return;
    }
    const before = previous?.tools ?? [];
    if (before.length > 0 && after.length === 0 && !pageChanged) {
      const timer = setTimeout(() => {
        const removed = this.heldRemoval;
        this.heldRemoval = undefined;
        if (removed) this.logChanges(diffToolLists(removed.tools, [], removed.at));
      }, heldRemovalMs);
      this.heldRemoval = { tools: before, url: previous?.url, at: now, timer };
      return;
    }
    this.logChanges(diffToolLists(before, after, now));
    if (next && (pageChanged || isAnotherDocument(before, after))) this.logPageChange(page?.url ?? previous?.url, next);
  }

  private logPageChange(url: string | undefined, next: TabTools): void {
    this.logChanges([{ kind: url === next.url ? 'reloaded' : 'navigated', name: next.url, frameId: 0, at: Date.now() }]);
  }

  private dropHeldRemoval(): void {
    if (this.heldRemoval) clearTimeout(this.heldRemoval.timer);
    this.heldRemoval = undefined;
  }

  private logChanges(found: ToolChange[]): void {
    if (found.length === 0) return;
    this.changes.value = [...found, ...this.changes.value].slice(0, changeLogLength);
    this.count.value += found.length;
  }
}

/** The top frame's document of a listing, where known: the listing's own, or that of a tool of the top frame. */
function topDocumentOf(listing: TabTools): { url: string; documentId: string } | undefined {
  const documentId = listing.documentId ?? listing.tools.find((tool) => tool.frameId === 0)?.documentId;
  return documentId === undefined ? undefined : { url: listing.url, documentId };
}
