import { memo } from 'preact/compat';
import type { Turn } from '@/lib/agent/session-state';
import type { ReadonlySignal } from '@preact/signals';
import type { ApprovalDecision, ConnectionState } from '@/lib/sidepanel/panel-model';
import { ProseView } from './prose-view';
import { RequestHeading } from './request-heading';
import { ToolCardView } from './tool-card-view';
import { TurnFooter } from './turn-footer';

interface TurnViewProps {
  turn: Turn;
  approvalsSent: ReadonlySet<string>;
  onApprove: (callId: string, decision: ApprovalDecision) => void;
  /** The panel's connection, which the approval buttons wait for. */
  connection: ReadonlySignal<ConnectionState>;
  /** Given to the latest turn while a request can be sent: one whose model failed offers to try again. */
  onTryAgain?: (request: string) => unknown;
  /** Given to the latest turn: one whose request was too long for the model offers to put it back in the box. */
  onEditRequest?: (request: string) => void;
  /** Given to the latest turn: how many requests the conversation shows above it. */
  requestsBefore?: number;
}

/** The person's request, then what the agent said and did for it, in order. */
export const TurnView = memo(function TurnView({ turn, approvalsSent, onApprove, connection, onTryAgain, onEditRequest, requestsBefore }: TurnViewProps) {
  const lastIndex = turn.items.length - 1;
  // While a call waits for the person's answer the agent writes nothing: no typing dots then.
  const waitsForPerson = turn.items.some((item) => item.kind !== 'prose' && item.state === 'waiting' && !approvalsSent.has(item.callId));
  return (
    // Named by its request, a heading, so a screen reader's heading keys move from request to request.
    // Not busy while it asks the person: some screen readers do not read into a busy region.
    <article class="turn" data-testid="turn" aria-busy={!turn.outcome && !waitsForPerson} aria-labelledby={`request-${turn.id}`}>
      <RequestHeading id={`request-${turn.id}`} request={turn.request} />
      <HistoryReadNote read={turn.requestsRead} before={requestsBefore} />
      {turn.items.map((item, index) =>
        item.kind === 'prose' ? (
          <ProseView key={`prose-${index}`} text={item.text} live={!turn.outcome && index === lastIndex} />
        ) : (
          <ToolCardView
            key={item.callId}
            card={item}
            answered={approvalsSent.has(item.callId)}
            onApprove={onApprove}
            connection={connection}
            followsAnswer={item.state === 'waiting' && turn.items.slice(0, index).some(answeredByPerson)}
          />
        ),
      )}
      {turn.outcome ? (
        <TurnFooter turn={{ ...turn, outcome: turn.outcome }} {...(onTryAgain ? { onTryAgain } : {})} {...(onEditRequest ? { onEditRequest } : {})} />
      ) : waitsForPerson ? null : (
        <div class="typing" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
      )}
    </article>
  );
});

/** An earlier call of the request that asked the person, and that they answered (here or in another panel). */
function answeredByPerson(item: Turn['items'][number]): boolean {
  return item.kind === 'tool' && item.approvalReason !== undefined && item.state !== 'waiting' && item.allowedBecause === undefined && item.withdrawn === undefined;
}

/**
 * Where the model read fewer of the requests above than the conversation shows (its context has
 * room for the last few, and none of another site's): a follow-up on an early one would find the
 * model knows nothing of it, though the person sees it right there.
 */
function HistoryReadNote({ read, before }: { read: number | undefined; before: number | undefined }) {
  if (read === undefined || before === undefined || read >= before) return null;
  return (
    <p class="turn-note" data-testid="history-read">
      {read === 0
        ? 'The model read none of the requests above with this one.'
        : `The model read only the last ${read === 1 ? 'request' : `${read} requests`} above with this one: earlier ones do not fit what it reads at once, or were on another site.`}
    </p>
  );
}
