// Asking again the server set up before is its own part: unlike a Connect it stays quiet, and gives
// way to whatever the person does while it waits.
import type { ReadonlySignal, Signal } from '@preact/signals';
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import type { Settings } from '@/lib/settings';
import { describeFailure, type Failure } from '@/lib/engines/describe-failure';
import type { ServerAsks } from './server-asks';
import type { ServerState } from './server-connection';

/** What the server connection hands its parts: its signals, its count of questions, and how to ask. */
export interface ServerReconnectParts {
  settings: ReadonlySignal<Settings | undefined>;
  models: Signal<readonly string[]>;
  state: Signal<ServerState>;
  failure: Signal<Failure | undefined>;
  asks: ServerAsks;
  listModels(target: string, key: string, signal?: AbortSignal): Promise<string[]>;
}

/** The server connection's `reconnect`, over the connection's signals and count of questions. */
export function createServerReconnect({ settings, models, state, failure, asks, listModels }: ServerReconnectParts) {
  /**
   * Back on the page, or back on the local server engine: the server set up before is asked for
   * its models without a Connect, so the page says at once whether it answers and shows the model
   * picked from its list. Quietly: the field and Connect stay free, and a Connect pressed meanwhile
   * is the answer shown.
   */
  return async function reconnect(current: Settings): Promise<void> {
    if (current.engine !== 'openai' || state.value !== 'idle') return;
    const mine = asks.next();
    const { openaiBaseUrl: address, openaiApiKey: key } = current;
    const stillAsked = () => asks.isLatest(mine) && state.value === 'idle' && settings.value?.openaiBaseUrl === address && settings.value.openaiApiKey === key;
    try {
      // An address stored by hand ("ftp://…") is not a server's: said so, not that no server answers there.
      const listed = await listModels(normalizeServerAddress(address), key);
      if (!stillAsked()) return;
      models.value = listed;
      state.value = 'connected';
    } catch (error) {
      if (stillAsked()) failure.value = { ...describeFailure(error), unprompted: true };
    }
  };
}

/**
 * The connection's `refresh`: back on the page, the server it is connected to is asked again for
 * its models, quietly, so a model pulled or removed meanwhile (the side panel may send the person
 * here for that) shows without a Connect. A server that stopped answering is said, as at the page's
 * opening; a Connect pressed meanwhile is the answer shown.
 */
export function createServerRefresh({ settings, models, state, failure, asks, listModels }: ServerReconnectParts) {
  return async function refresh(): Promise<void> {
    const current = settings.value;
    if (current?.engine !== 'openai' || state.value !== 'connected') return;
    const mine = asks.next();
    const { openaiBaseUrl: address, openaiApiKey: key } = current;
    const stillAsked = () => asks.isLatest(mine) && state.value === 'connected' && settings.value?.openaiBaseUrl === address && settings.value.openaiApiKey === key;
    try {
      const listed = await listModels(normalizeServerAddress(address), key);
      if (stillAsked()) models.value = listed;
    } catch (error) {
      if (!stillAsked()) return;
      state.value = 'idle';
      failure.value = { ...describeFailure(error), unprompted: true };
    }
  };
}
