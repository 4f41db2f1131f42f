import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { listServerModels } from '@/lib/engines/openai/list-server-models';
import { fetchWithKey } from '@/lib/engines/openai/server-key';
import type { Settings, SettingsChange } from '@/lib/settings';
import type { Failure } from '@/lib/engines/describe-failure';
import type { OptionsDependencies } from './options-types';
import { createServerAsks } from './server-asks';
import { createServerConnect } from './server-connect';
import { createServerReconnect, createServerRefresh } from './server-reconnect';

export type ServerState = 'idle' | 'connecting' | 'connected';

/**
 * What a field of the server section shows, kept here rather than in the section: a person who
 * looks at another engine and comes back finds what they typed and did not save yet. `stored` is
 * the setting the field last took its text from (see `useShownSetting`).
 */
export interface FieldDraft {
  shown: Signal<string>;
  stored: Signal<string | undefined>;
}

function fieldDraft(): FieldDraft {
  return { shown: signal(''), stored: signal(undefined) };
}

interface ServerConnectionParts {
  dependencies: Pick<OptionsDependencies, 'fetch' | 'timeouts'>;
  settings: ReadonlySignal<Settings | undefined>;
  update(change: SettingsChange): Promise<boolean>;
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
  /** The model in use that the last Connect's server lacks, which the agent no longer asks for. */
  const modelGone = signal<string | undefined>(undefined);
  const asks = createServerAsks();

  /** The server's models, asked for with its key and the page's own fetch and timeout. */
  function listModels(target: string, key: string, signal?: AbortSignal): Promise<string[]> {
    return listServerModels(target, {
      fetch: fetchWithKey(dependencies.fetch ?? ((input, init) => globalThis.fetch(input, init)), key),
      ...(dependencies.timeouts?.connectMs ? { timeoutMs: dependencies.timeouts.connectMs } : {}),
      ...(signal ? { signal } : {}),
    });
  }

  const drafts = { address: fieldDraft(), key: fieldDraft() };
  const reconnect = createServerReconnect({ settings, models, state, failure, asks, listModels });
  const connector = createServerConnect({ settings, models, state, failure, modelGone, asks, listModels, update, dropTrial, drafts });
  return {
    models: models as ReadonlySignal<readonly string[]>,
    state: state as ReadonlySignal<ServerState>,
    failure: failure as ReadonlySignal<Failure | undefined>,
    modelGone: modelGone as ReadonlySignal<string | undefined>,
    /** The address and key fields as the person left them. */
    drafts,
    reconnect,
    refresh: createServerRefresh({ settings, models, state, failure, asks, listModels }),
    connect: connector.connect,
    /**
     * Another page saved another server (or key): the models this page lists were the old one's.
     * A Connect of this page's own is the answer shown, and is not asked again.
     */
    serverChangedElsewhere(): void {
      if (state.value === 'connecting') return;
      state.value = 'idle';
      models.value = [];
      modelGone.value = undefined;
      // A trial's reply was about the server as it was (see `connect`).
      dropTrial();
      const current = settings.value;
      if (current) void reconnect(current);
    },
    /** Stops a Connect that waits for the server (the person's Cancel, or Escape): nothing is saved. */
    cancelConnect: connector.cancel,
    /** The last attempt's failure was about the address or key as they were: edited ones have not been tried. */
    editAddress(): void {
      asks.next();
      failure.value = undefined;
    },
  };
}
