import { OpenOptionsButton } from './open-options-button';

/** The person turned the agent off on this site: nothing runs here until they turn it back on. */
export function AgentOffNote({ origin }: { origin: string }) {
  return (
    <div class="empty-state" data-testid="agent-off">
      <h2>The agent is off on this site</h2>
      <p>
        You turned it off for {origin} in the options, so it reads nothing here and runs no tool. Remove the site
        from “Sites where the agent is off” to use it again.
      </p>
      <p>
        <OpenOptionsButton />
      </p>
    </div>
  );
}
