import type { ReadonlySignal } from '@preact/signals';
import { memo } from 'preact/compat';
import { useMemo } from 'preact/hooks';
import type { ToolCard } from '@/lib/agent/session-state';
import { compactJson } from '@/lib/sidepanel/compact-json';
import { formatDuration } from '@/lib/text/format-duration';
import type { ApprovalDecision, ConnectionState } from '@/lib/sidepanel/panel-model';
import { readableResult } from '@/lib/sidepanel/readable-result';
import { plural } from '@/lib/text/plural';
import { resultReadText } from '@/lib/text/result-read-text';
import { formWaitsForPerson } from '@/lib/webmcp/form-waits-for-person';
import { ArgumentsToCheck } from '@/components/shared/arguments-to-check';
import { HiddenCharacters, JsonText, looksLikeJson } from '@/components/shared/json-text';
import { AddressText } from '@/components/shared/address-text';
import { ApprovalButtons } from './approval-buttons';
import { useCopied } from './use-copied';
import { formatWait, useTimeSince } from '@/components/shared/use-time-since';

const stateLabels: Record<ToolCard['state'], string> = {
  waiting: 'Waiting for you',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  unanswered: 'No answer',
  declined: 'Declined',
  'not-run': 'Not run',
  invalid: 'Invalid arguments',
  unknown: 'Not available',
  // The trace viewer's word for the same problem.
  unreadable: 'Unreadable call',
};

interface ToolCardViewProps {
  card: ToolCard;
  answered: boolean;
  onApprove: (callId: string, decision: ApprovalDecision) => void;
  connection: ReadonlySignal<ConnectionState>;
  /** A question that follows the person's answer to one before it in the request (see `ApprovalButtons`). */
  followsAnswer?: boolean;
}

/** One tool call: what was called with what, how it went, and its result on demand. */
export const ToolCardView = memo(function ToolCardView({ card, answered, onApprove, connection, followsAnswer }: ToolCardViewProps) {
  const result = card.result;
  const stateLabel = stateLabelOf(card);
  const filledIn = filledForPerson(card);
  // A snapshot brings every card anew: the same result is not read again.
  const shownResult = useMemo(() => (result === undefined ? undefined : readableResult(result)), [result]);
  return (
    <section
      class={`tool-card state-${card.state}${filledIn ? ' filled-in' : ''}`}
      data-testid="tool-card"
      data-state={card.state}
      data-name={card.name}
      role="group"
      aria-label={card.name ? `${card.title ?? card.name}: ${stateLabel}` : stateLabel}
    >
      <header class="tool-head">
        {/* The page's words for the tool head its card; its name, which traces and the inspector use, follows. */}
        {card.title && (
          <span class="tool-title" dir="auto" lang={card.lang}>
            <HiddenCharacters text={card.title} />
          </span>
        )}
        {/* A call that could not be read may not even name its tool. */}
        {card.name && (
          <code class={card.title ? 'tool-name quiet' : 'tool-name'} title={card.name}>
            {/* The model's words where no page offers the tool: what draws nothing shows by its code. */}
            <HiddenCharacters text={card.name} />
          </code>
        )}
        <span class="tool-state">
          {card.state === 'running' && <span class="spinner" aria-hidden="true" />}
          {stateLabel}
        </span>
        {card.durationMs !== undefined && <span class="tool-duration">{formatDuration(card.durationMs)}</span>}
        {card.state === 'running' && card.sentAt !== undefined && <RunningFor since={card.sentAt} />}
      </header>
      {card.state === 'waiting' ? (
        <ArgumentsToCheck value={card.arguments} />
      ) : (
        // Arguments that could not be read are not `{}`: what the model wrote is in the details.
        card.state !== 'unreadable' && (
          <code class="tool-arguments" title="Arguments" data-testid="tool-arguments">
            <JsonText text={compactJson(card.arguments)} />
          </code>
        )
      )}
      {card.state === 'waiting' && <ApprovalButtons card={card} answered={answered} onApprove={onApprove} connection={connection} followsAnswer={followsAnswer} />}
      {/* Where the call went stays said once it is answered: another site got its arguments. */}
      {card.origin && card.state !== 'waiting' && (
        <p class="tool-note" data-testid="tool-origin">
          From <AddressText text={card.origin} />, another site framed in this page.
        </p>
      )}
      {/* It asked, and ran without a yes to it here: the person learns why, not that a tab answered for them unsaid. */}
      {card.allowedBecause && (
        <p class="tool-note" data-testid="allowed-because">
          No answer needed here any more: {card.allowedBecause}.
        </p>
      )}
      {result !== undefined && (
        <details class="tool-result">
          <summary>
            {card.state === 'done' ? 'Result' : 'Details'}
            {card.read && <span class="tool-read"> · {resultReadText(card.read)}</span>}
          </summary>
          {/* Already cut by the background (cardResultLimit); the trace keeps what the model saw. */}
          <pre
            class={looksLikeJson(shownResult ?? '') ? 'json' : undefined}
            data-testid="tool-result"
            // The page's answer is in the page's language; a failure's details may be the extension's words.
            lang={card.state === 'done' ? card.lang : undefined}
            role="group"
            aria-label={card.state === 'done' ? 'Result' : 'Details'}
          >
            <JsonText text={shownResult ?? ''} />
          </pre>
          <CopyResult text={shownResult ?? ''} label={card.state === 'done' ? 'result' : 'details'} />
        </details>
      )}
    </section>
  );
});

/** Copies a call's result as the card shows it (laid out, and cut where the card cuts it). */
function CopyResult({ text, label }: { text: string; label: string }) {
  const [copied, copy] = useCopied();
  return (
    <p class="result-bar">
      <button type="button" class="meta-button" data-testid="copy-result" aria-label={copied === 'copied' ? undefined : `Copy the ${label}`} onClick={() => copy(text)}>
        {copied === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span class="visually-hidden" role="status">
        {copied === 'copied' ? `${label[0]!.toUpperCase()}${label.slice(1)} copied.` : copied === 'failed' ? `The browser would not copy the ${label}: select it and copy it by hand.` : ''}
      </span>
    </p>
  );
}

/**
 * A tool the page offers that the ranking left out is not missing: the person is told it was not
 * shown, where the model's own message says only "Unknown tool". One the page changed or removed
 * after the model was shown it did not run, as the trace says; its details say why.
 */
function stateLabelOf(card: ToolCard): string {
  if (card.withdrawn) return 'Not run';
  if (filledForPerson(card)) return 'Filled in: send it on the page';
  // A form whose new page gives no result: it was sent, and that page shows how it went. A script's
  // tool gave no result before a new page loaded: the tool's doing, or the person's, which one is not known.
  if (card.state === 'done' && card.loadedPage?.byScript) return 'New page loaded';
  if (card.state === 'done' && card.loadedPage && card.pageResult === undefined) return 'Sent';
  if (card.state !== 'unknown' || card.shownCount === undefined) return stateLabels[card.state];
  const count = card.shownCount;
  return count === 0 ? 'Not shown for this request' : `Not among the ${plural(count, 'tool')} shown for this request`;
}

/**
 * A form without `toolautosubmit` that the call filled in: nothing is sent until the person sends
 * it on the page, so the card does not say "Done".
 */
function filledForPerson(card: ToolCard): boolean {
  return card.state === 'done' && card.result?.startsWith(formWaitsForPerson) === true;
}

/**
 * How long the page has been running the call, once it takes longer than a moment: a tool that
 * waits on a server, or on the person in the page, shows it is still at it. Not a live region: not read out each second.
 */
function RunningFor({ since }: { since: number }) {
  const elapsed = useTimeSince(since);
  if (elapsed < runningCountAfterMs) return null;
  return (
    <span class="tool-duration" data-testid="running-for">
      {formatWait(elapsed)}
    </span>
  );
}

/** A call shorter than this ends before a count would mean anything. */
const runningCountAfterMs = 2_000;
