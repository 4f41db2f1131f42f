import type { RunError } from '@webmcp-agents/local-agent';

/** Engine error codes about one reply, not about the engine: it can serve the next request. */
const replyOnlyCodes = new Set(['reply-cut-off', 'context-full']);

/**
 * Whether a run's error means the engine itself failed (the GPU was lost, the server went away),
 * which every tab's panel should show; a reply that was too long, or a fault of the extension in
 * the loop, is only that turn's.
 */
export function isEngineFailure(error: RunError): boolean {
  return error.name === 'EngineError' && !replyOnlyCodes.has(error.code ?? '');
}
