import type { ReadonlySignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ToolCard } from '@/lib/agent/session-state';
import type { ApprovalDecision, ConnectionState } from '@/lib/sidepanel/panel-model';
import { focusRequestBox, requestBoxFocusedEmpty } from './focus-request-box';
import { pressWhenAllowed } from './press-when-allowed';
import { AddressText } from '@/components/shared/address-text';
import { HiddenCharacters } from '@/components/shared/json-text';

interface ApprovalButtonsProps {
  card: ToolCard;
  /** The answer went out; the buttons wait for the background to move the card on. */
  answered: boolean;
  onApprove: (callId: string, decision: ApprovalDecision) => void;
  /** The panel's connection: while it is not there, an answer would go nowhere and waits. */
  connection: ReadonlySignal<ConnectionState>;
  /** The person answered a question of an earlier call of this request: this one may take the focus that answer gave the request box. */
  followsAnswer?: boolean;
}

/** Why the call waits for the person, by its `approvalReason`. */
const reasons: Record<NonNullable<ToolCard['approvalReason']>, string> = {
  consequential: 'This action has consequences. Check it before it runs.',
  'consequence-unknown': "This page's WebMCP library does not say whether this tool has consequences, so it asks every time.",
  'other-site': 'Its site gets what this call sends, so such a tool asks every time, even one that says it only reads.',
  'not-read-only': 'This tool may change the page.',
  'read-untrusted':
    'This tool may change the page, and this conversation has read text the page marks as written by others (reviews, mail), the page a form loaded, or the words of another site framed in this page, which may be what asks for it.',
  'confirm-all': 'You asked to confirm every tool call.',
};

/** Whether the person's last answer, in this panel, put the focus in the request box (see `ApprovalButtons`). */
let answerGaveFocus = false;

/**
 * The person's answer to a call that waits. The site-wide choice is offered only for a tool that
 * may change the page: a consequential tool asks every time, so does every tool when the person
 * chose to confirm them all, and so does a tool that may change the page once the run has read
 * text that strangers wrote.
 */
export function ApprovalButtons({ card, answered, onApprove, connection, followsAnswer = false }: ApprovalButtonsProps) {
  const offerSite = card.approvalReason === 'not-read-only' && card.siteChoice !== false;
  const why =
    card.approvalReason === 'read-untrusted' && card.untrustedRead
      ? `This tool may change the page, and this request has read ${card.untrustedRead}: that may be what asks for it.`
      : reasons[card.approvalReason ?? 'consequential'];
  const connected = connection.value === 'connected';
  // The question may end without the person (the page took the tool away, the site was allowed in
  // another tab): focus on its buttons goes to the request box, as after an answer, not to the body.
  const group = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const shown = group.current;
    // The calls of one reply are asked about one at a time: the next question takes the focus an
    // answer here gave the request box, unless the person has typed there since. The question, not
    // its yes: an Enter held down, or pressed as it comes, must not allow a call nobody read.
    if (followsAnswer && answerGaveFocus && requestBoxFocusedEmpty()) shown?.focus();
    answerGaveFocus = false;
    return () => {
      if (shown?.contains(document.activeElement)) focusRequestBox();
    };
  }, []);
  const answer = (decision: ApprovalDecision) =>
    pressWhenAllowed(connected, () => {
      onApprove(card.callId, decision);
      focusRequestBox();
      answerGaveFocus = true;
    });
  return (
    <div class="approval" role="group" aria-label={`Allow ${card.title ?? card.name}?`} ref={group} tabIndex={-1}>
      {card.origin && (
        <p class="approval-origin" data-testid="tool-origin">
          From <strong><AddressText text={card.origin} /></strong>, another site framed in this page.
        </p>
      )}
      {card.description && (
        // The page's own words, so they are said to be the page's: a page may describe a tool as it likes.
        <p class="approval-description">
          <span class="muted">{card.origin ? 'That site says: ' : 'The page says: '}</span>
          <bdi data-testid="tool-description" lang={card.lang}>
            <HiddenCharacters text={card.description} />
          </bdi>
        </p>
      )}
      <p class="approval-reason">
        {why}
      </p>
      <div class="approval-buttons">
        <button type="button" class="button primary" data-testid="approve-once" disabled={answered} {...answer('allow-once')}>
          Allow once
        </button>
        {offerSite && (
          <button type="button" class="button" data-testid="approve-site" disabled={answered} {...answer('allow-site')}>
            Allow on this site
          </button>
        )}
        <button type="button" class="button danger" data-testid="deny" disabled={answered} {...answer('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
