// Apart from the viewer's model, so its parts catch failures alike: as words, never as an uncaught error.
import { errorMessage } from '../messaging/error-message';

/** Runs an action; a failure is told to `report` in words after `prefix` (where there is one to tell), never thrown. */
export async function attemptAction<T>(action: () => Promise<T>, report?: (text: string) => void, prefix = ''): Promise<T | undefined> {
  try {
    return await action();
  } catch (error) {
    report?.(`${prefix}${errorMessage(error)}`);
    return undefined;
  }
}
