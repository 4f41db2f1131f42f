import { cutText } from '../cut-text';

/** Longest snippet of the model's own text quoted back to it. */
const SNIPPET_LENGTH = 60;
/** Longest tool name quoted back: a name is model-written and could be anything. */
const NAME_LENGTH = 64;

/** The names are listed as offered, joined by ", "; "none" when no tool is offered. */
export function unknownToolMessage(name: string, toolNames: ReadonlySet<string>): string {
  const available = toolNames.size === 0 ? 'none' : [...toolNames].join(', ');
  return `Unknown tool "${cap(name, NAME_LENGTH)}". Available now: ${available}.`;
}

export function argumentsMessage(name: string): string {
  return `Arguments for "${cap(name, NAME_LENGTH)}" must be a JSON object.`;
}

/** A short reason, then the start of the offending text with its white space collapsed. */
export function unreadableMessage(reason: string, offending: string): string {
  const snippet = offending === '' ? '' : collapseSpace(offending.slice(0, SNIPPET_LENGTH * 4));
  const quoted = snippet === '' ? '' : ` in "${cap(snippet, SNIPPET_LENGTH)}"`;
  return `Couldn't read a tool call: ${reason}${quoted}.`;
}

function cap(text: string, length: number): string {
  return text.length > length ? `${cutText(text, length)}…` : text;
}

function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
