/** How long a custom element name is waited for: a widget a page loads lazily comes within seconds. */
const upgradeWaitMs = 60_000;

/**
 * Where a page's `<form toolname>`s live: the document and every open shadow root in it (web
 * components), as Chrome lists them; closed roots stay closed. The page is walked once it is
 * parsed, then only what it adds is looked into (`scan`), so listing the forms stays a plain query.
 *
 * A shadow root can also appear with no change a mutation observer sees: a custom element the
 * page defines later (a lazily loaded widget) gets its root when it is upgraded. So each custom
 * element name not yet defined is remembered, with one element of it, for `upgraded` to check,
 * for a minute: a page that never defines it (or defines it much later) is not checked for its
 * whole life; a panel opening on the tab walks the page again (`lookAgain`) and finds the root.
 */
export class ToolFormRoots {
  private readonly roots = new Set<ShadowRoot>();
  private readonly waiting = new Map<string, { element: Element; since: number }>();
  /** Names waited for their whole minute: not waited for again. */
  private readonly givenUp = new Set<string>();
  private readonly listeners = new Set<(root: ShadowRoot) => void>();
  private walked = false;

  /** The tool forms of the document, then those of each open shadow root still in the page. */
  forms(): HTMLFormElement[] {
    this.walkOnce();
    const forms = Array.from(document.querySelectorAll<HTMLFormElement>('form[toolname]'));
    for (const root of this.roots) {
      // A removed host is found again by `scan` if the page puts it back.
      if (root.host.isConnected) forms.push(...Array.from(root.querySelectorAll<HTMLFormElement>('form[toolname]')));
      else this.roots.delete(root);
    }
    return forms;
  }

  /** Every open shadow root known now, the whole page walked first if it never was. */
  known(): ShadowRoot[] {
    this.walkOnce();
    return [...this.roots];
  }

  /** While the page loads, its walk waits for DOMContentLoaded (see watchToolForms): it sees all the page then. */
  private walkOnce(): void {
    if (!this.walked && document.readyState !== 'loading') this.walk();
  }

  /** Walks the whole page again; answers whether a new root was found. */
  walk(): boolean {
    this.walked = true;
    return this.scan(document);
  }

  /** Looks for open shadow roots in `node` and below it; answers whether a new one was found. */
  scan(node: Node): boolean {
    let found = false;
    const visit = (element: Element): void => {
      const name = element.localName;
      if (name.includes('-') && !this.waiting.has(name) && !this.givenUp.has(name) && !element.matches(':defined')) {
        this.waiting.set(name, { element, since: performance.now() });
      }
      const shadow = element.shadowRoot;
      if (!shadow) return;
      if (!this.roots.has(shadow)) {
        this.roots.add(shadow);
        found = true;
        for (const listener of this.listeners) listener(shadow);
      }
      walkElements(shadow, visit);
    };
    if (node instanceof Element) visit(node);
    walkElements(node, visit);
    return found;
  }

  /** Whether a known host (or one inside it) is `node` or below it. */
  holdsKnownHost(node: Node): boolean {
    for (const root of this.roots) if (node === root.host || node.contains(root.host)) return true;
    return false;
  }

  /**
   * Whether a custom element name seen undefined is defined now (forgetting it then). A name
   * still undefined a minute after it was first seen is given up.
   */
  upgraded(): boolean {
    let any = false;
    const now = performance.now();
    for (const [name, { element, since }] of this.waiting) {
      const defined = element.shadowRoot !== null || element.matches(':defined');
      if (defined || !element.isConnected) this.waiting.delete(name);
      else if (now - since >= upgradeWaitMs) {
        this.waiting.delete(name);
        this.givenUp.add(name);
      }
      any ||= defined;
    }
    return any;
  }

  /** Whether some custom element name is still waiting for its definition. */
  hasWaiting(): boolean {
    return this.waiting.size > 0;
  }

  /** Calls `listener` with each root found from now on; returns how to stop. */
  onFound(listener: (root: ShadowRoot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function walkElements(root: Node, visit: (element: Element) => void): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) visit(node as Element);
}
