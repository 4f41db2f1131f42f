import { EngineError } from '../engines/engine';
import { errorMessage } from '../messaging/error-message';
import type { StatusPublisher } from './engine-status-publisher';
import type { EngineName, SharedLoad } from './shared-load';

/**
 * What the panels and the run are told of a load that did not end with the engine loaded: a Stop
 * says only that it stopped, a load that failed puts its error and what to do about it in the status.
 */
export function createLoadFailure({ shared, loads }: { shared: StatusPublisher; loads: SharedLoad }) {
  return (error: unknown, name: EngineName, signal: AbortSignal, loading: boolean): { error: string } => {
    if (signal.aborted) {
      // A Stop while waiting for a swap, or while another tab's load goes on (see `stopped`), leaves
      // the status to whoever else is using the engine.
      if (loading) loads.stopped();
      return { error: 'Stopped while the model was loading.' };
    }
    const { message, hint } = describeEngineError(error);
    const code = engineErrorCode(error);
    shared.update({ ...name, state: 'error', error: message, hint, errorCode: code, errorDuring: 'load', progress: undefined, progressText: undefined, stalled: undefined });
    return { error: hint ? `${message} ${hint}` : message };
  };
}

/** The code of an engine's error, from this context or another. */
function engineErrorCode(error: unknown): string | undefined {
  const named = error instanceof Error && error.name === 'EngineError' && 'code' in error;
  return named && typeof (error as { code: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
}

/** An engine's error as the person reads it, with its hint; one from another context keeps its hint by name. */
export function describeEngineError(error: unknown): { message: string; hint?: string } {
  if (error instanceof EngineError) return { message: error.message, hint: error.hint };
  if (error instanceof Error && error.name === 'EngineError' && 'hint' in error) {
    return { message: error.message, hint: String((error as { hint: unknown }).hint) };
  }
  return { message: `The model could not load: ${errorMessage(error)}` };
}
