// A run's turn as it ends: its open cards closed, its outcome and notice set, and when it ended.
import { errorMessage } from '../messaging/error-message';
import type { ActiveRun } from './active-run';
import { closeOpenCards } from './close-open-cards';
import type { Turn, TurnOutcome } from './session-state';
import { noCallWorkedNotice, noticeFor } from './turn-notices';
import { anyCallWorked } from './turn-outcome';

/** The turn once its run answered `outcome`; the notice says so, and whether the engine or the model's load failed. */
export function endedTurn(turn: Turn, active: ActiveRun, outcome: TurnOutcome, detail: string | undefined): Turn {
  const failed = {
    ...(active.engineFailed ? { engineFailed: true } : {}),
    ...(active.loadFailed ? { loadFailed: true } : {}),
    ...(active.requestTooLong ? { requestTooLong: true } : {}),
    ...(active.noAnswer ? { noAnswer: true } : {}),
    ...(active.cutOff ? { cutOff: true } : {}),
    ...(active.agentOff ? { agentOff: true } : {}),
  };
  const notice = outcome === 'max-steps' && !anyCallWorked(turn) ? noCallWorkedNotice(detail) : noticeFor(outcome, detail);
  return { ...closeOpenCards(turn, 'ended'), outcome, notice, ...failed, endedAt: Date.now() };
}

/** The turn once a fault of the extension itself ended its run: it still ends, saying what went wrong. */
export function turnEndedByFault(turn: Turn, error: unknown): Turn {
  const message = errorMessage(error);
  return { ...closeOpenCards(turn, 'ended'), outcome: 'error', notice: noticeFor('error', message), endedAt: Date.now() };
}
