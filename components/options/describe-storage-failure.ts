import { errorNameAndMessage } from '@/lib/messaging/error-message';
import type { Failure } from '@/lib/engines/describe-failure';

/** What the options page did with the WebLLM models stored on this computer. */
export type StorageAction = { kind: 'read' } | { kind: 'delete'; label: string } | { kind: 'delete-all' };

/**
 * A failure of the Cache Storage WebLLM keeps its models in, as the page shows it: what failed,
 * with the browser's words last, and what to try. Chrome's usual failure there is an UnknownError
 * ("Unexpected internal error"), from its storage on disk; a QuotaExceededError means no room.
 */
export function describeStorageFailure(action: StorageAction, error: unknown): Failure {
  const { name, message } = errorNameAndMessage(error);
  const said = (message || name).replace(/\.$/, '');
  const full = name === 'QuotaExceededError';
  if (action.kind === 'read') {
    return {
      message: `Could not read the models stored on this computer: ${said}.`,
      hint: full ? "Chrome's storage is full: free some disk space, then reload this page." : 'Reload this page to read them again. If it fails again, check that the disk has free space, then restart Chrome.',
    };
  }
  const again = full ? 'If it fails again, free some disk space first.' : 'If it fails again, reload this page and try once more, or restart Chrome.';
  if (action.kind === 'delete') {
    return {
      message: `Could not delete ${action.label}: ${said}.`,
      hint: `Some of its files may be gone already (the list then says "incomplete download"). Trying again is safe: it deletes only what is left. ${again}`,
    };
  }
  return {
    message: `Could not delete the stored models: ${said}.`,
    hint: `Some may be gone already. Trying again is safe: it deletes only what is left. ${again}`,
  };
}

