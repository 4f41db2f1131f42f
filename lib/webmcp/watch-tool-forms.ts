import { outermostConnected } from './outermost-connected';
import { pageHasForms } from './page-has-forms';
import type { ToolFormRoots } from './tool-form-roots';
import { toolFormObserverOptions } from './tool-form-observer-options';
import { touchesForms } from './touches-forms';

/**
 * How often a custom element name seen undefined is checked again: from a quarter second to
 * every 5 s, for as long as ToolFormRoots waits for a name (`upgraded`).
 */
const firstUpgradeCheckMs = 250;
const lastUpgradeCheckMs = 5_000;

/** However busy the page, the walk after it loaded comes within this. */
const walkWithinMs = 1_000;

/**
 * Calls `onChange` when the page's tool forms may have changed: in the document and in every open
 * shadow root, those found later included (added with their host, attached while the page loads,
 * or made when a custom element is defined). Changes away from forms and labels are skipped cheaply.
 * Returns how to stop.
 *
 * The whole page is walked once it is parsed and once it has loaded (one walk when both come
 * before the browser is idle), and when a custom element is defined. Otherwise only what the page
 * added is looked into, a batch of changes at a time, each element with the outermost added one
 * that holds it: the cost follows what the page changed, not how big it is.
 */
export function watchToolForms(roots: ToolFormRoots, onChange: () => void): () => void {
  const watcher = new ToolFormWatcher(roots, onChange);
  return () => watcher.stop();
}

class ToolFormWatcher {
  /**
   * Until DOMContentLoaded the parser adds the page, one record a node, and the walk then sees all
   * of it: meanwhile each batch only asks whether a form came (reading every record's nodes would
   * cost a long page a quarter second). A document already there (a frame the page wrote) is
   * looked at at once.
   */
  private parsed = document.readyState !== 'loading';
  /**
   * Most pages have no form at all: then only a form added can change the tools, and what each
   * change touched need not be looked at (a long article parses in thousands of records).
   */
  private hadForms: boolean;
  private readonly observer = new MutationObserver((records) => this.read(records));
  private readonly stopFinding: () => void;
  private idleWalk: number | undefined;
  private upgradeTimer: ReturnType<typeof setTimeout> | undefined;
  private upgradeDelay = firstUpgradeCheckMs;
  private readonly onParsed = (): void => {
    this.parsed = true;
    // The parser's records (tens of thousands on a long page) are dropped unread.
    this.observer.disconnect();
    this.walkWhenIdle();
  };
  private readonly onLoad = (): void => this.walkWhenIdle();

  constructor(
    private readonly roots: ToolFormRoots,
    private readonly onChange: () => void,
  ) {
    this.hadForms = this.parsed && pageHasForms(roots);
    this.stopFinding = roots.onFound((root) => this.observeFound(root));
    this.observeAll();
    document.addEventListener('DOMContentLoaded', this.onParsed);
    window.addEventListener('load', this.onLoad);
    this.scheduleUpgradeCheck();
  }

  stop(): void {
    this.observer.disconnect();
    this.stopFinding();
    clearTimeout(this.upgradeTimer);
    if (this.idleWalk !== undefined) cancelIdleCallback(this.idleWalk);
    document.removeEventListener('DOMContentLoaded', this.onParsed);
    window.removeEventListener('load', this.onLoad);
  }

  private read(records: MutationRecord[]): void {
    if (!this.parsed) {
      if (!this.hadForms && document.forms.length > 0) this.settle(true, true);
      return;
    }
    const added = new Set<Element>();
    let formsTouched = false;
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) added.add(node);
      if (this.hadForms) formsTouched ||= touchesForms(record, this.roots);
    }
    // Text replaced, nodes removed: on a page without forms, nothing that could bring tools.
    if (!this.hadForms && added.size === 0) return;
    const outermost = outermostConnected(added);
    let found = false;
    for (const element of outermost) found = this.roots.scan(element) || found;
    const hasForms = this.hadForms
      ? !formsTouched || pageHasForms(this.roots)
      : outermost.some(holdsForm) || (found && pageHasForms(this.roots));
    this.settle(found || formsTouched, hasForms);
  }

  /** Roots the parser or the page's first scripts attach, into elements already seen. */
  private walkAgain(): void {
    // Changes not yet read are dropped unread: the walk sees what they did.
    this.observer.disconnect();
    const found = this.roots.walk();
    const hasForms = pageHasForms(this.roots);
    // Those changes may have touched forms: a page with forms is read again (the reader reports
    // only what differs).
    this.settle(found || hasForms || this.hadForms, hasForms, true);
  }

  /** Off the page's DOMContentLoaded and load: a long page's walk would hold them up. */
  private walkWhenIdle(): void {
    this.idleWalk ??= requestIdleCallback(
      () => {
        this.idleWalk = undefined;
        this.walkAgain();
      },
      { timeout: walkWithinMs },
    );
  }

  private settle(changed: boolean, hasForms: boolean, observeAgain = false): void {
    const formsCameOrWent = hasForms !== this.hadForms;
    this.hadForms = hasForms;
    if (formsCameOrWent || observeAgain) this.observeAll();
    if (changed || formsCameOrWent) this.onChange();
    this.scheduleUpgradeCheck();
  }

  /**
   * A root found by any walk: this watcher's, or one it never hears of (the panel's `lookAgain`, a
   * call looking for its form). One holding a form makes the page one with forms, every root then
   * watched whole: watched only for what is added, its form could gain a field, be renamed or go
   * with no change told.
   */
  private observeFound(root: ShadowRoot): void {
    if (!this.hadForms && root.querySelector('form') !== null) {
      this.hadForms = true;
      this.observeAll();
    }
    this.observe(root);
  }

  private observe(root: Document | ShadowRoot): void {
    this.observer.observe(root, toolFormObserverOptions(this.hadForms));
  }

  /** The document, and once it is parsed (no root is known before) every open shadow root in it. */
  private observeAll(): void {
    this.observe(document);
    if (this.parsed) this.roots.known().forEach((root) => this.observe(root));
  }

  private scheduleUpgradeCheck(): void {
    if (this.upgradeTimer !== undefined || !this.roots.hasWaiting()) return;
    this.upgradeTimer = setTimeout(() => {
      this.upgradeTimer = undefined;
      if (this.roots.upgraded()) {
        this.upgradeDelay = firstUpgradeCheckMs;
        this.walkAgain();
        return;
      }
      this.upgradeDelay = Math.min(this.upgradeDelay * 2, lastUpgradeCheckMs);
      this.scheduleUpgradeCheck();
    }, this.upgradeDelay);
  }
}

/** Whether `element` is a form or holds one (in its own tree: a shadow root in it is found by `scan`). */
function holdsForm(element: Element): boolean {
  return element.nodeName === 'FORM' || element.getElementsByTagName('form').length > 0;
}
