import { signal, type ReadonlySignal } from '@preact/signals';
import { listServerModels } from '@/lib/engines/openai/list-server-models';
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import type { Settings, SettingsChange } from '@/lib/settings';
import { describeFailure, type Failure } from './describe-failure';
import type { OptionsDependencies } from './options-types';

export type ServerState = 'idle' | 'connecting' | 'connected';

interface ServerConnectionParts {
  dependencies: Pick<OptionsDependencies, 'fetch' | 'timeouts'>;
  settings: ReadonlySignal<Settings | undefined>;
  update(change: SettingsChange): Promise<void>;
  /** An earlier trial's reply was about the server as it was: it must not vouch for another. */
  dropTrial(): void;
}

/**
 * The model server the options page connects to: its models, whether it answers, and why not. The
 * address is saved only once the server has answered, so one that does not leaves the agent on the
 * address it had.
 */
export function createServerConnection({ dependencies, settings, update, dropTrial }: ServerConnectionParts) {
  const models = signal<readonly string[]>([]);
  const state = signal<ServerState>('idle');
  const failure = signal<Failure | undefined>(undefined);
  // Which question to the server may still answer: a Connect, or the address changing, makes an
  // earlier one moot.
  let serverAsks = 0;

  /** The server's models, asked for with the page's own fetch and timeout. */
  function listModels(target: string): Promise<string[]> {
    return listServerModels(target, {
      ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
      ...(dependencies.timeouts?.connectMs ? { timeoutMs: dependencies.timeouts.connectMs } : {}),
    });
  }

  /**
   * Back on the page, or back on the local server engine: the server set up before is asked for
   * its models without a Connect, so the page says at once whether it answers and shows the model
   * picked from its list. Quietly: the field and Connect stay free, and a Connect pressed meanwhile
   * is the answer shown.
   */
  async function reconnect(current: Settings): Promise<void> {
    if (current.engine !== 'openai' || state.value !== 'idle') return;
    const mine = (serverAsks += 1);
    const address = current.openaiBaseUrl;
    const stillAsked = () => mine === serverAsks && state.value === 'idle' && settings.value?.openaiBaseUrl === address;
    try {
      const listed = await listModels(address);
      if (!stillAsked()) return;
      models.value = listed;
      state.value = 'connected';
    } catch (error) {
      if (stillAsked()) failure.value = describeFailure(error);
    }
  }

  /** Lists the server's models at `address`, and saves the address once it has answered. */
  async function connect(address: string): Promise<void> {
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
    serverAsks += 1;
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
  }

  return {
    models: models as ReadonlySignal<readonly string[]>,
    state: state as ReadonlySignal<ServerState>,
    failure: failure as ReadonlySignal<Failure | undefined>,
    reconnect,
    connect,
    /** The last attempt's failure was about the address as it was: an edited one has not been tried. */
    editAddress(): void {
      serverAsks += 1;
      failure.value = undefined;
    },
  };
}
