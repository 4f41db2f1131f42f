// The person's Connect is its own part: it alone saves an address and its key, and only once the
// server there has answered.
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import { EngineError } from '@/lib/engines/engine';
import { isKeyRefusal } from '@/lib/engines/openai/server-errors';
import { normalizeServerKey } from '@/lib/engines/openai/server-key';
import type { Signal } from '@preact/signals';
import type { Settings, SettingsChange } from '@/lib/settings';
import { describeFailure } from '@/lib/engines/describe-failure';
import type { ServerReconnectParts } from './server-reconnect';
import type { FieldDraft, ServerState } from './server-connection';

interface ServerConnectParts extends ServerReconnectParts {
  modelGone: Signal<string | undefined>;
  update(change: SettingsChange): Promise<boolean>;
  /** An earlier trial's reply was about the server as it was: it must not vouch for another. */
  dropTrial(): void;
  /** The address and key fields as the person left them. */
  drafts: { address: FieldDraft; key: FieldDraft };
}

/** The server connection's `connect` and its `cancel`, over the connection's signals and count of questions. */
export function createServerConnect({ models, state, failure, modelGone, asks, listModels, update, dropTrial, drafts }: ServerConnectParts) {
  let waiting: { controller: AbortController; before: ServerState } | undefined;
  /** Lists the server's models at `address` with `typedKey`, and saves both once it has answered. */
  async function connect(address: string, typedKey: string): Promise<void> {
    // One connection at a time: Connect stays focusable while it waits, so Enter can come again.
    if (state.value === 'connecting') return;
    failure.value = undefined;
    modelGone.value = undefined;
    asks.next();
    // Whatever comes of it, the last connection and trial were about the server as it was.
    dropTrial();
    let target: string;
    let key: string;
    let field: 'address' | 'key' = 'address';
    try {
      target = normalizeServerAddress(address);
      field = 'key';
      key = normalizeServerKey(typedKey);
    } catch (error) {
      // A mistyped address fails as a server that does not answer does: never beside "Connected".
      state.value = 'idle';
      failure.value = { ...describeFailure(error), field };
      return;
    }
    const controller = new AbortController();
    waiting = { controller, before: state.value };
    state.value = 'connecting';
    try {
      const listed = await listModels(target, key, controller.signal);
      if (controller.signal.aborted) return;
      let gone: string | undefined;
      // Read as the answer is written: the person may have chosen another engine while it came.
      const saved = await update((current) => {
        const off = serverModelOff(current, listed);
        gone = 'model' in off ? current.model : undefined;
        return { openaiBaseUrl: target, openaiApiKey: key, ...off };
      });
      // Not saved (the page says why): the address in use is still the one before, never "Connected".
      if (!saved) {
        state.value = 'idle';
        return;
      }
      models.value = listed;
      modelGone.value = gone;
      state.value = 'connected';
      // The fields show what was saved ("127.0.0.1:11434" as "http://127.0.0.1:11434/v1"), where
      // they still hold what was connected: the same address again changes no setting to show it.
      if (drafts.address.shown.peek() === address) drafts.address.shown.value = target;
      if (drafts.key.shown.peek() === typedKey) drafts.key.shown.value = key;
    } catch (error) {
      // Cancelled: the page is as it was before Connect, its fields free again.
      if (controller.signal.aborted) return;
      state.value = 'idle';
      const field = refusedField(error);
      failure.value = { ...describeFailure(error), ...(field ? { field } : {}) };
    } finally {
      if (waiting?.controller === controller) waiting = undefined;
    }
  }
  return {
    connect,
    /** The page as it was before Connect: still connected to the server saved, where it was. */
    cancel(): void {
      if (!waiting || state.value !== 'connecting') return;
      const { controller, before } = waiting;
      controller.abort();
      waiting = undefined;
      asks.next();
      state.value = before;
    },
  };
}

/**
 * The field a failed Connect is about: the key a server refused, or an address where no server
 * answers or where no API does (a web page, no model list). A server that answered and failed
 * otherwise (busy, refusing this extension, an error of its own) says nothing of either field.
 */
function refusedField(error: unknown): 'address' | 'key' | undefined {
  if (isKeyRefusal(error)) return 'key';
  return error instanceof EngineError && (error.code === 'server-down' || error.code === 'not-configured') ? 'address' : undefined;
}

/**
 * A model picked on another server is not one this server has: the person picks again. It is the
 * local server's own pick that goes, where it is kept now (the model in use, or the one kept for
 * the engine's return), never another engine's.
 */
function serverModelOff(current: Settings, listed: readonly string[]): Partial<Settings> {
  if (current.engine === 'openai') return current.model && !listed.includes(current.model) ? { model: '' } : {};
  const kept = current.modelByEngine.openai;
  return kept && !listed.includes(kept) ? { modelByEngine: { ...current.modelByEngine, openai: '' } } : {};
}
