// Which of a batch of added elements to walk: its own file so the watcher's batch reading stays
// short, and the walk-each-once rule can be tested alone.

/**
 * The elements of `added` still in the page that no other of them holds: walking these walks every
 * one. An element added with its parent (as a framework renders a list) is not walked twice.
 */
export function outermostConnected(added: ReadonlySet<Element>): Element[] {
  return [...added].filter((element) => element.isConnected && !hasAncestorIn(element, added));
}

function hasAncestorIn(node: Node, nodes: ReadonlySet<Node>): boolean {
  for (let at = parentOf(node); at; at = parentOf(at)) if (nodes.has(at)) return true;
  return false;
}

/** A node's parent, out of a shadow root through its host. */
function parentOf(node: Node): Node | null {
  return node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
}
