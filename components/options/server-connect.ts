// The person's Connect is its own part: it alone saves an address, and only once the server there
// has answered.
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import type { SettingsChange } from '@/lib/settings';
import { describeFailure } from './describe-failure';
import type { ServerReconnectParts } from './server-reconnect';

interface ServerConnectParts extends ServerReconnectParts {
  update(change: SettingsChange): Promise<void>;
  /** An earlier trial's reply was about the server as it was: it must not vouch for another. */
  dropTrial(): void;
}

/** The server connection's `connect`, over the connection's signals and count of questions. */
export function createServerConnect({ settings, models, state, failure, asks, listModels, update, dropTrial }: ServerConnectParts) {
  /** Lists the server's models at `address`, and saves the address once it has answered. */
  return async function connect(address: string): Promise<void> {
    // One connection at a time: Connect stays focusable while it waits, so Enter can come again.
    if (state.value === 'connecting') return;
    failure.value = undefined;
    let target: string;
    try {
      target = normalizeServerAddress(address);
    } catch (error) {
      failure.value = describeFailure(error);
      return;
    }
    asks.next();
    state.value = 'connecting';
    dropTrial();
    try {
      const listed = await listModels(target);
      // A model picked on another server is not one this server has: let the person pick again.
      const picked = settings.value?.model;
      await update({ openaiBaseUrl: target, ...(picked && !listed.includes(picked) ? { model: '' } : {}) });
      models.value = listed;
      state.value = 'connected';
    } catch (error) {
      state.value = 'idle';
      failure.value = describeFailure(error);
    }
  };
}
