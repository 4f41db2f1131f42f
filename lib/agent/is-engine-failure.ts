import type { RunError } from '@webmcp-agents/local-agent';
import type { EngineErrorCode } from '../engines/engine';

/**
 * Engine error codes about one reply, not about the engine: it can serve the next request. Checked
 * against the codes; read as text, since a run's error carries its code as a plain string.
 */
const replyOnlyCodes: ReadonlySet<string> = new Set<EngineErrorCode>(['reply-cut-off', 'thinking-cut-off', 'context-full']);

/**
 * Whether a run's error means the engine itself failed (the GPU was lost, the server went away),
 * which the tab's status line says too, with the way to the options; a reply that was too long, or
 * a fault of the extension in the loop, is only that turn's.
 */
export function isEngineFailure(error: RunError): boolean {
  return error.name === 'EngineError' && !replyOnlyCodes.has(error.code ?? '');
}
