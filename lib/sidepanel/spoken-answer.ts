import type { Turn } from '@/lib/agent/session-state';
import { renderMarkdown } from './render-markdown';

/** About what a screen reader says in fifteen seconds: more is read in the conversation itself. */
const spokenCharacters = 320;

/** Markdown read to find them: enough for its marks and links, never the whole of a long reply. */
const readCharacters = spokenCharacters * 8;

const blocks = 'p, li, h1, h2, h3, h4, h5, h6, pre, blockquote, tr, ul, ol, table, hr';

/**
 * A finished turn's answer as a screen reader should hear it: its words without Markdown's marks,
 * a block at a time, and only the start of a long one, saying where the rest is. The answer is the
 * prose after the last call: what the model said before its calls ("First I search the shop…") is
 * in the conversation, and would otherwise take the time the answer is said in.
 */
export function spokenAnswer(turn: Turn): string {
  const lastCall = turn.items.findLastIndex((item) => item.kind !== 'prose');
  const answerItems = turn.items.slice(lastCall + 1);
  const said = answerItems.some((item) => item.kind === 'prose' && item.text.trim() !== '') ? answerItems : turn.items;
  const prose = said.flatMap((item) => (item.kind === 'prose' ? [item.text] : [])).join('\n\n');
  // Only the start is said: a reply of a megabyte is not rendered again to say 320 characters.
  const text = plainText(prose.length > readCharacters ? prose.slice(0, readCharacters) : prose);
  if (text === '') return 'The answer is ready.';
  if (text.length <= spokenCharacters && prose.length <= readCharacters) return text;
  const cut = text.slice(0, spokenCharacters);
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length > spokenCharacters / 2 ? atWord : cut}… The whole answer is in the conversation.`;
}

/** Rendered as the panel shows it (the same safe Markdown), then read back as text, a block a line. */
function plainText(markdown: string): string {
  // An inert document: nothing in it loads or runs.
  const document = new DOMParser().parseFromString(renderMarkdown(markdown), 'text/html');
  const parts: string[] = [];
  readOut(document.body, parts);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').replace(/[,\s]+$/, '').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function readOut(node: Node, parts: string[]): void {
  for (const child of node.childNodes) {
    // Line breaks are the blocks' and the <br>s': the markup's own new lines are spaces.
    if (child.nodeType === Node.TEXT_NODE) parts.push((child.textContent ?? '').replace(/\s+/g, ' '));
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    const block = element.matches(blocks);
    if (block || element.matches('br')) parts.push('\n');
    readOut(element, parts);
    if (block) parts.push('\n');
    else if (element.matches('td, th')) parts.push(', ');
  }
}
