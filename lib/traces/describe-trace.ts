import type { CallStatus, Divergence } from './divergence-schema';
import type { TraceOutcome } from './trace-schema';

/** How a run ended, in a word or two; a run without an outcome is still going on. */
export function outcomeLabel(outcome: TraceOutcome | undefined): string {
  switch (outcome) {
    case undefined:
      return 'Running';
    case 'answer':
      return 'Answered';
    case 'stopped':
      return 'Stopped';
    case 'interrupted':
      return 'Interrupted';
    case 'max-steps':
      return 'Too many steps';
    case 'repeated-call':
      return 'Repeated call';
    case 'tool-timeout':
      return 'Tool timed out';
    case 'no-answer':
      return 'Nobody answered';
    case 'navigated':
      return 'Page changed';
    case 'error':
      return 'Error';
  }
}

function callStatusLabel(status: CallStatus): string {
  switch (status) {
    case 'ran':
      return 'ran';
    case 'invalid-arguments':
      return 'had its arguments rejected';
    case 'unknown-tool':
      return 'named a tool the page does not offer';
    case 'declined':
      return 'was declined';
    case 'repeated':
      return 'was stopped as a repeat';
    case 'duplicate':
      return 'was not run, the same call as one before it';
    case 'cut-off':
      return 'was cut off as the run stopped';
    case 'not-begun':
      return 'never began, as the run stopped at a call before it';
    case 'not-run':
      return 'was not made';
  }
}

/** One line for a divergence, as the viewer lists it. */
export function describeDivergence(divergence: Divergence): string {
  switch (divergence.type) {
    case 'tool-list': {
      const parts = [
        divergence.added.length ? `new: ${divergence.added.join(', ')}` : '',
        divergence.removed.length ? `gone: ${divergence.removed.join(', ')}` : '',
        divergence.changed.length ? `changed: ${divergence.changed.join(', ')}` : '',
      ].filter(Boolean);
      return `The page offered other tools (${parts.join('; ')}).`;
    }
    case 'call':
      return `${divergence.name} ${callStatusLabel(divergence.recorded)} in the recording, and now ${callStatusLabel(divergence.replayed)}.`;
    case 'result':
      return `${divergence.name} returned something else.`;
    case 'steps':
      return `The replay took ${divergence.replayed} step${divergence.replayed === 1 ? '' : 's'}; the recording ${divergence.recorded}.`;
  }
}

// One formatter for every row: making one per call is what makes a long list slow.
let momentFormat: Intl.DateTimeFormat | undefined;

/**
 * A moment as the list shows it: the date and time to the second, in the person's own format.
 * Never throws: a record from an older import may hold a time no date can show.
 */
export function formatMoment(time: number): string {
  momentFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  try {
    return momentFormat.format(time);
  } catch {
    return '(invalid date)';
  }
}
