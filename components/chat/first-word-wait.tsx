import { formatWait, useTimeSince } from '@/components/shared/use-time-since';
import type { EngineStatus } from '@/lib/agent/session-state';
import { isServerEngine } from '@/lib/engines/engine-labels';

/** After this long a server's silence is explained: it may be loading the model, or reading a long prompt on a CPU. */
const explainAfterMs = 15_000;

/**
 * A reply asked for that has brought no word yet, counted in whole seconds: a model reading its
 * prompt, a server that has not answered (which may take minutes), or a model still thinking,
 * rather than "Generating".
 */
export function FirstWordWait({ engine, since }: { engine: EngineStatus; since: number }) {
  const waited = useTimeSince(since);
  const server = isServerEngine(engine.engineId);
  const words = engine.thinking ? 'Thinking' : server ? 'Waiting for the server' : 'Reading the prompt';
  return (
    <>
      <span class="status-state state-generating" data-testid="first-word-wait">
        {words}
        {waited >= 1_000 ? ` · ${formatWait(waited)}` : '…'}
      </span>
      {server && !engine.thinking && waited >= explainAfterMs && (
        <span class="status-detail">It may be loading the model or reading a long prompt; Stop gives up.</span>
      )}
    </>
  );
}

/**
 * A reply begun that has brought nothing more for a while, counted from its last piece: a server
 * may have stalled (its own timeout ends the reply after a minute), where Stop gives up at once.
 */
export function QuietReply({ engine, since }: { engine: EngineStatus; since: number }) {
  const quiet = useTimeSince(since);
  return (
    <>
      <span class="status-state state-generating" data-testid="quiet-reply">
        Nothing new for {formatWait(quiet)}
      </span>
      <span class="status-detail">{isServerEngine(engine.engineId) ? 'The server may have stalled; Stop gives up.' : 'Stop gives up.'}</span>
    </>
  );
}
