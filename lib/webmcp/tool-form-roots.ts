/**
 * Where a page's `<form toolname>`s live: the document and every open shadow root in it (web
 * components), as Chrome lists them; closed roots stay closed. The page is walked once it is
 * parsed, then only what it adds is looked into (`scan`), so listing the forms stays a plain query.
 *
 * A shadow root can also appear with no change a mutation observer sees: a custom element the
 * page defines later (a lazily loaded widget) gets its root when it is upgraded. So each custom
 * element name not yet defined is remembered, with one element of it, for `upgraded` to check.
 */
export class ToolFormRoots {
  private readonly roots = new Set<ShadowRoot>();
  private readonly waiting = new Map<string, Element>();
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
      if (element.localName.includes('-') && !this.waiting.has(element.localName) && !element.matches(':defined')) {
        this.waiting.set(element.localName, element);
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

  /** Whether a custom element name seen undefined is defined now (forgetting it then). */
  upgraded(): boolean {
    let any = false;
    for (const [name, element] of this.waiting) {
      const defined = element.shadowRoot !== null || element.matches(':defined');
      if (defined || !element.isConnected) this.waiting.delete(name);
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
