import { assertNever, toolOutputLength } from '@webmcp-agents/chat';
import type { AgentEvent, ToolErrorKind } from '@webmcp-agents/local-agent';
import { cutText } from '../local-agent/cut-text';
import { appendProse } from './append-prose';
import { replaceStepProse } from './replace-step-prose';
import type { ToolCard, Turn } from './session-state';
import type { ToolFace } from './tab-run';
import { withdrawnWords } from './withdrawn-words';

/** A tool result shown on a card is cut here; the trace keeps what the model saw. */
export const cardResultLimit = 20_000;

/**
 * What a turn looks like after one event of its run. Events that change nothing visible return it
 * as it was. `faceOf`: the page's words for a tool (its `title`) and their language as the run last read its tools, where it gave them.
 */
export function applyAgentEvent(turn: Turn, event: AgentEvent, faceOf?: (name: string) => ToolFace | undefined): Turn {
  switch (event.type) {
    case 'prose-delta':
      return appendProse(turn, event.text);
    case 'tool-call': {
      const { title, lang } = faceOf?.(event.name) ?? {};
      return {
        ...turn,
        items: [
          ...turn.items,
          { kind: 'tool', callId: event.callId, name: event.name, ...(title ? { title } : {}), ...(lang ? { lang } : {}), arguments: event.arguments, state: 'running' },
        ],
      };
    }
    case 'tool-approval-response':
      // A question withdrawn (the page changed or removed its tool) was never declined, nor anyone's
      // mistake: the error after it says why.
      return updateCard(turn, event.callId, {
        state: event.approved ? 'running' : event.withdrawn ? 'not-run' : 'declined',
        ...(event.allowedBecause ? { allowedBecause: event.allowedBecause } : {}),
      });
    case 'tool-result':
      return updateCard(turn, event.callId, {
        state: event.output.isError ? 'failed' : event.output.noAnswer ? 'unanswered' : 'done',
        result: cut(event.output.text, toolOutputLength(event.output)),
        durationMs: Math.round(event.durationMs),
      });
    case 'results-read':
      return event.results.reduce(
        (changed, { callId, characters, of }) => (characters < of ? updateCard(changed, callId, { read: { characters, of } }) : changed),
        turn,
      );
    case 'tool-error':
      return applyToolError(turn, event);
    case 'prose-replace':
      return replaceStepProse(turn, event.text);
    // Nothing a turn shows: the reply reaches it as prose-delta, and the session itself marks a
    // card waiting (with the reason it shows) and sets the turn's end.
    case 'step-start':
    case 'text-delta':
    case 'tool-approval-request':
    case 'step-end':
    case 'finish':
      return turn;
    default:
      return assertNever(event);
  }
}

/** How a call's card ends when the loop refused it; one that never ran is not said to have failed. */
const refusedStates: Record<ToolErrorKind, ToolCard['state']> = {
  parse: 'unreadable',
  'unknown-tool': 'unknown',
  'invalid-arguments': 'invalid',
  declined: 'declined',
  repeated: 'not-run',
  duplicate: 'not-run',
};

function applyToolError(turn: Turn, event: Extract<AgentEvent, { type: 'tool-error' }>): Turn {
  if (event.callId) {
    // A call whose tool the page changed or took away is the page's doing: not run, not the model's mistake.
    if (event.withdrawn) return updateCard(turn, event.callId, { state: 'not-run', result: withdrawnWords(event.message), withdrawn: true });
    const result = event.kind === 'declined' ? declinedWords(event.message) : event.message;
    return updateCard(turn, event.callId, { state: refusedStates[event.kind], result });
  }
  // A call the model wrote that never became one still shows, so that a step whose call failed
  // is seen (and its prose stays apart from the next step's): what was asked of a tool it was not
  // offered (no arguments where they could not be read) and whether the page has that tool, or a
  // call that could not be read at all, named where its tool's name could be read. The same one a
  // third time stops the run (`repeated`, naming only a missing tool): that copy shows as the others
  // did, saying why it stopped, so that the cards count what the notice does.
  const mistake = event.kind === 'repeated' ? (event.name === undefined ? 'parse' : 'unknown-tool') : event.kind;
  if (mistake !== 'unknown-tool' && mistake !== 'parse') return turn;
  const card: ToolCard = {
    kind: 'tool',
    callId: `${event.step}.${mistake === 'parse' ? 'unreadable' : 'unknown'}.${turn.items.length}`,
    name: event.name ?? '',
    arguments: event.arguments ?? {},
    state: refusedStates[mistake],
    result: event.message,
    ...(event.shownCount !== undefined ? { shownCount: event.shownCount } : {}),
  };
  return { ...turn, items: [...turn.items, card] };
}

/**
 * A declined call's card, in the person's words: the loop's own ("The user declined … Do not call it
 * again unless they ask.") are written to the model, which the trace keeps.
 */
function declinedWords(toModel: string): string {
  return toModel.startsWith('The user already declined')
    ? 'You declined this call earlier in this request, so it did not run, and you were not asked again.'
    : 'You declined this call, so it did not run.';
}

export function updateCard(turn: Turn, callId: string, change: Partial<ToolCard>): Turn {
  return {
    ...turn,
    items: turn.items.map((item) => (item.kind === 'tool' && item.callId === callId ? { ...item, ...change } : item)),
  };
}

/** `fullLength`: the result's length as the page gave it, which a huge one had before it was carried. */
function cut(text: string, fullLength: number): string {
  if (text.length <= cardResultLimit) return text;
  // Never in half an emoji: the card would show "�".
  const kept = cutText(text, cardResultLimit);
  return `${kept}\n… (${fullLength - kept.length} more characters)`;
}
