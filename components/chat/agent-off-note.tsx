import { siteLabel } from '@/lib/text/site-label';
import { pressWhenAllowed } from './press-when-allowed';
import { listed } from '@/lib/text/listed';

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
  const wider = offBy.filter((entry) => otherHost(entry, origin) || otherPorts(entry, origin));
  const names = wider.length > 0 ? `${listed(wider.map(siteLabel))}${reachOf(wider, origin)}` : undefined;
  return (
    <div class="empty-state" data-testid="agent-off">
      <h2>The agent is off on this site</h2>
      <p>
        {names
          ? `You turned it off for ${names}, this site among them, so the model gets nothing from this page and runs none of its tools.`
          : `You turned it off for ${siteLabel(origin)}, so the model gets nothing from this page and runs none of its tools.`}
      </p>
      <p>
        <button type="button" class="button" data-testid="agent-on" {...pressWhenAllowed(connected, onTurnOn)}>
          {names ? `Turn the agent on for ${names}` : 'Turn the agent on here'}
        </button>
      </p>
    </div>
  );
}

/** What else the wider entries cover: their subdomains (a parent domain of this site), every port (one listed without a port). */
function reachOf(wider: readonly string[], origin: string): string {
  const its = wider.length === 1 ? 'its' : 'their';
  const hosts = wider.some((entry) => otherHost(entry, origin));
  const ports = wider.some((entry) => otherPorts(entry, origin));
  if (hosts && ports) return ` and ${its} subdomains, on every port`;
  return hosts ? ` and ${its} subdomains` : ' on every port';
}

/** Whether a listed site is another host than this site's (a parent domain it covers). */
function otherHost(entry: string, origin: string): boolean {
  const [listed, site] = [urlOf(entry), urlOf(origin)];
  return listed !== undefined && site !== undefined && listed.hostname !== site.hostname;
}

/** Whether a listed site, given without a port, covers this site's port and others. */
function otherPorts(entry: string, origin: string): boolean {
  const [listed, site] = [urlOf(entry), urlOf(origin)];
  return listed !== undefined && site !== undefined && listed.port === '' && site.port !== '';
}

function urlOf(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}

