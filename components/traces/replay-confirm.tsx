// Its own file: the replay's question to the person, with its own focus handling, apart from the panel around it.
import { useEffect, useId, useRef } from 'preact/hooks';
import { ArgumentsToCheck } from '@/components/shared/arguments-to-check';
import { HiddenCharacters } from '@/components/shared/json-text';
import type { ReplayAskReason, ReplayConfirmRequest } from '@/lib/traces/trace-protocol';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

const askReasons: Record<ReplayAskReason, string> = {
  consequential: 'It is marked as having consequences, so it always asks.',
  'other-site': 'It is a tool of another site framed in the page, which gets what the call sends, so it always asks.',
  'confirm-all': 'You asked to confirm every tool call.',
  'not-read-only': 'It is not marked read-only, so it may change the page.',
};

/**
 * A call that waits for the person: named, on which site, and why. It takes the focus when it comes
 * and, once answered or withdrawn, hands it on (`onAnswered`), as it goes.
 */
export function ReplayConfirm({ model, call, onAnswered }: { model: TraceViewerModel; call: ReplayConfirmRequest; onAnswered: () => void }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [call.callId]);
  // A question withdrawn unanswered (its tab left the site) hands the focus on as an answer does.
  const handOn = useRef(onAnswered);
  handOn.current = onAnswered;
  useEffect(() => () => void (box.current?.contains(document.activeElement) && handOn.current()), []);
  const answer = (allow: boolean) => {
    model.answerConfirm(allow);
    onAnswered();
  };
  return (
    <div
      ref={box}
      class="replay-confirm"
      role="group"
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-reason`}
      data-testid="replay-confirm"
      data-name={call.name}
      // Escape gives the safe answer, as every other question of the extension takes it; a held
      // Escape's repeats are no answers, or the next question, which takes the focus, would go unseen.
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.repeat) return;
        event.preventDefault();
        answer(false);
      }}
    >
      <p id={`${id}-title`} data-testid="replay-confirm-title">
        The replay wants to run{' '}
        <code>
          <HiddenCharacters text={call.name} />
        </code>{' '}
        on {call.origin} with:
      </p>
      {/* From a file, which may come from anyone: every argument shows, its hidden characters marked. */}
      <ArgumentsToCheck value={call.arguments} />
      <p id={`${id}-reason`} data-testid="replay-confirm-reason">
        {askReasons[call.reason]}
      </p>
      <button type="button" class="primary" onClick={() => answer(true)} data-testid="replay-allow">
        Run it
      </button>
      <button type="button" onClick={() => answer(false)} data-testid="replay-skip">
        Skip it
      </button>
    </div>
  );
}
