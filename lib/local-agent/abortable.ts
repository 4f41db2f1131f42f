/** The error a run stops with when its signal aborts, checked by name like every cross-context error. */
export function abortError(): Error {
  const error = new Error('The run was stopped.');
  error.name = 'AbortError';
  return error;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Why a reply's signal aborts when the model went on past its own turn (see createOwnTurn): the
 * reply ended well there, which an engine host must not take for the person's Stop.
 */
export function turnOverReason(): Error {
  const reason = new Error("The model's turn was over.");
  reason.name = 'TurnOver';
  return reason;
}

export function isTurnOver(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TurnOver';
}

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
