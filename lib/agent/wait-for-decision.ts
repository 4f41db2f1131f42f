// The wait for the person's yes or no to a call: the tab's toolbar says a call waits, and a run
// nobody answers ends.
import type { ActiveRun, Decision, Settled, TabRunHost } from './active-run';

/**
 * Ends the run if the person has not answered in `approvalWaitMs`; the timer goes with the run.
 * `settledMeanwhile` is asked each time the page's tools or the settings change, and ends the wait
 * where the question no longer stands.
 */
export function waitForDecision(
  host: TabRunHost,
  active: ActiveRun,
  callId: string,
  name: string,
  settledMeanwhile: () => Promise<Settled | undefined>,
): Promise<Decision | Settled> {
  const { approvalWaitMs } = host.world;
  const minutes = Math.max(1, Math.round(approvalWaitMs / 60_000));
  const signal = active.controller.signal;
  // Stopped while the question was being put: nobody is asked, and the tab says nothing waits.
  if (signal.aborted) return Promise.resolve('deny');
  const timer = setTimeout(() => {
    if (host.isActive(active)) host.stop('no-answer', `nobody answered whether to run "${name}" within ${minutes === 1 ? 'a minute' : `${minutes} minutes`}`);
  }, approvalWaitMs);
  // Answered, or the run stopped (the question then goes unanswered): the wait is over either way.
  // The question is in `approvals` whenever `showAsking` is told of it: a tab waiting for this
  // run reads it there (see `runSeenFromElsewhere`).
  let finished = false;
  const over = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    signal.removeEventListener('abort', over);
    active.approvals.delete(callId);
    host.world.showAsking?.(host.tabId, false);
  };
  const decided = new Promise<Decision | Settled>((resolve) =>
    active.approvals.set(callId, {
      answer: resolve,
      // Whichever comes first, the person's answer or this, ends the wait; a run stopped meanwhile has ended it.
      lookAgain: () => void settledMeanwhile().then((settled) => settled && !signal.aborted && resolve(settled), () => {}),
    }),
  );
  signal.addEventListener('abort', over, { once: true });
  host.world.showAsking?.(host.tabId, true);
  // A change that came before the question was put (while the call was judged) was told to no one.
  active.approvals.get(callId)?.lookAgain();
  return decided.finally(over);
}
