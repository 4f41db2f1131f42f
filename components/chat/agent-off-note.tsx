import { siteLabel } from '@/lib/text/site-label';
import { pressWhenConnected } from './press-when-connected';

interface AgentOffNoteProps {
  origin: string;
  /** False while the panel reconnects, when a press would go nowhere. */
  connected: boolean;
  /** The entries of the person's list that keep the agent off here (see `agentOffBy`). */
  offBy: readonly string[];
  onTurnOn(): void;
}

/**
 * The person turned the agent off on this site: nothing runs here until they turn it back on,
 * which they can do from here. An entry that covers more than this site (its parent domain)
 * goes too, so the button names it: the person sees what else turns on before pressing.
 */
export function AgentOffNote({ origin, connected, offBy, onTurnOn }: AgentOffNoteProps) {
  const wider = offBy.filter((entry) => coversMoreThan(entry, origin));
  const names = wider.length > 0 ? `${listed(wider.map(siteLabel))} and ${wider.length === 1 ? 'its' : 'their'} subdomains` : undefined;
  return (
    <div class="empty-state" data-testid="agent-off">
      <h2>The agent is off on this site</h2>
      <p>
        {names
          ? `You turned it off for ${names}, this site among them, so the model gets nothing from this page and runs none of its tools.`
          : `You turned it off for ${siteLabel(origin)}, so the model gets nothing from this page and runs none of its tools.`}
      </p>
      <p>
        <button type="button" class="button" data-testid="agent-on" {...pressWhenConnected(connected, onTurnOn)}>
          {names ? `Turn the agent on for ${names}` : 'Turn the agent on here'}
        </button>
      </p>
    </div>
  );
}

/** Whether a listed site is another host than this site's (a parent domain it covers). */
function coversMoreThan(entry: string, origin: string): boolean {
  try {
    return new URL(entry).hostname !== new URL(origin).hostname;
  } catch {
    return false;
  }
}

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
