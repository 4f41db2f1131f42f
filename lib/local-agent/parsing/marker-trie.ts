import { MARKERS, type MarkerName } from './markup-markers';

interface TrieNode {
  /** The characters that lead here: the start of a marker (all of it at a leaf). */
  text: string;
  /** The marker this node completes, if any. */
  marker: MarkerName | null;
  children: Map<number, number>;
}

/**
 * The markers as a trie, so a stream that holds back the start of a tag can take the next
 * character in one step, without building or hashing a string.
 */
const nodes: TrieNode[] = [{ text: '', marker: null, children: new Map() }];
for (const [name, marker] of Object.entries(MARKERS) as Array<[MarkerName, string]>) {
  let node = 0;
  for (let index = 0; index < marker.length; index += 1) {
    const code = marker.charCodeAt(index);
    const parent = nodes[node] as TrieNode;
    let next = parent.children.get(code);
    if (next === undefined) {
      next = nodes.length;
      nodes.push({ text: marker.slice(0, index + 1), marker: null, children: new Map() });
      parent.children.set(code, next);
    }
    node = next;
  }
  (nodes[node] as TrieNode).marker = name;
}

/** The empty prefix: nothing held. */
export const TRIE_ROOT = 0;

/** The node after one more character, or -1 when no marker goes on that way. */
export function stepMarkerTrie(node: number, code: number): number {
  return nodes[node]?.children.get(code) ?? -1;
}

/** The marker prefix a node stands for. */
export function markerTrieText(node: number): string {
  return nodes[node]?.text ?? '';
}

/** Whether the node is a whole marker rather than the start of one. */
export function isWholeMarkerNode(node: number): boolean {
  return (nodes[node]?.marker ?? null) !== null;
}

/** The node for a marker prefix, or -1 when the text starts no marker. */
export function markerTrieNodeOf(text: string): number {
  let node = TRIE_ROOT;
  for (let index = 0; index < text.length && node !== -1; index += 1) node = stepMarkerTrie(node, text.charCodeAt(index));
  return node;
}
