/** An error known by its name, as every error that crosses contexts is checked. */
function namedError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

function hasName(error: unknown, name: string): boolean {
  return error instanceof Error && error.name === name;
}

/** The error a run stops with when its signal aborts. */
export const abortError = (): Error => namedError('AbortError', 'The run was stopped.');

export const isAbortError = (error: unknown): boolean => hasName(error, 'AbortError');

/**
 * Why a reply's signal aborts when the model went on past its own turn (see createOwnTurn): the
 * reply ended well there, which an engine host must not take for the person's Stop.
 */
export const turnOverReason = (): Error => namedError('TurnOver', "The model's turn was over.");

export const isTurnOver = (reason: unknown): boolean => hasName(reason, 'TurnOver');

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts (with an AbortError, or what
 * `reason` gives): Stop must end a run at once even when an engine or a page ignores the signal
 * it was given.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reason: (signal: AbortSignal) => unknown = abortError): Promise<T> {
  if (signal.aborted) return Promise.reject(reason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
