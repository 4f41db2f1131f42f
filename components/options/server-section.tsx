import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useId, useRef } from 'preact/hooks';
import { firstChatModel, isEmbeddingModel } from '@/lib/engines/openai/first-chat-model';
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import { normalizeServerKey } from '@/lib/engines/openai/server-key';
import type { Settings } from '@/lib/settings';
import { isOnThisMachine } from '@/lib/text/on-this-machine';
import { plural } from '@/lib/text/plural';
import { useAfterMount } from '@/components/shared/use-after-mount';
import { BusyButton } from './busy-button';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import type { FieldDraft } from './server-connection';
import { TrialView } from './trial-view';
import { useCancelButton } from './use-cancel-button';

/** An OpenAI-compatible server: its address, and the model, chosen from the server's own list. */
export function ServerSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  const models = model.serverModels.value;
  const chat = firstChatModel(models);
  const state = model.serverState.value;
  const failureId = useId();
  return (
    <section aria-labelledby="server-heading">
      <h2 id="server-heading">Model server</h2>
      <ServerAddress model={model} settings={settings} failureId={failureId} />
      {/* Mounted from the start, so that the words are read out when Connect works. */}
      <div role="status" data-testid="server-connected">
        {state === 'connected' && <p class="muted">{connectedText(models, settings.model === '' ? model.serverModelGone.value : undefined, chat)}</p>}
      </div>
      {/* A server with no model that can chat has none to pick or try; one picked stays in sight, to undo. */}
      {state === 'connected' && (chat !== undefined || settings.model) && <ServerModelPicker model={model} settings={settings} models={models} firstChat={chat} />}
      {state !== 'connected' && settings.model && <p class="muted">Model: {settings.model}</p>}
      <ServerFailure model={model} id={failureId} />
      {state === 'connected' && (chat !== undefined || settings.model) && <TrialView model={model} />}
      <p class="muted">
        Ollama, LM Studio and llama.cpp serve this API at /v1. Ollama accepts the extension only when started with{' '}
        <code>OLLAMA_ORIGINS=chrome-extension://*</code>.
      </p>
    </section>
  );
}

/**
 * Why the server does not answer: as an alert after Connect; politely where the page asked by itself
 * (as it opens, or as the person arrows through the engines onto this one), in a status region
 * filled once it is in the page, so that it is read out at all, at each arrival here.
 */
function ServerFailure({ model, id }: { model: OptionsModel; id: string }) {
  const failure = model.serverFailure.value;
  const politely = useAfterMount(failure?.unprompted ? failure : undefined);
  return (
    <>
      <div role="status">{politely && <FailureBox failure={politely} id={id} />}</div>
      {!failure?.unprompted && <FailureBox failure={failure} id={id} />}
    </>
  );
}

/**
 * The address and key fields and Connect, with what the address means: another computer, or not
 * saved yet. The field a failed Connect refused, as typed still, is marked and described by the
 * failure (`failureId`), which a screen reader would otherwise say only once.
 */
function ServerAddress({ model, settings, failureId }: { model: OptionsModel; settings: Settings; failureId: string }) {
  const address = useShownSetting(settings.openaiBaseUrl, model.serverDrafts.address, (typed) => storedAs(typed) ?? typed.trim());
  const key = useShownSetting(settings.openaiApiKey, model.serverDrafts.key, keyStoredAs);
  const connecting = model.serverState.value === 'connecting';
  // The address in the field, once it is one; until then the one the agent uses.
  const elsewhere = elsewhereNote(storedAs(address.value) ?? settings.openaiBaseUrl);
  const elsewhereId = useId();
  // What the person's last Connect tried: where it failed, "press Connect" would ask for the same again.
  const tried = useSignal<string | undefined>(undefined);
  const failedAsTyped = model.serverFailure.value !== undefined && tried.value === triedKey(address.value, key.value);
  const refused = failedAsTyped ? model.serverFailure.value?.field : undefined;
  return (
    <>
      <AddressForm
        model={model}
        settings={settings}
        address={address}
        apiKey={key}
        connecting={connecting}
        describedBy={elsewhere ? elsewhereId : undefined}
        refused={refused && { field: refused, by: failureId }}
        onConnect={() => (tried.value = triedKey(address.value, key.value))}
      />
      {elsewhere && (
        <p id={elsewhereId} class="notice" data-testid="server-elsewhere">
          {elsewhere}
        </p>
      )}
      {/* The address and key are kept only once the server answers: say so while an edit waits, to a screen reader too. */}
      <div role="status">{!connecting && <UnsavedNote settings={settings} address={address.value} apiKey={key.value} failed={failedAsTyped} />}</div>
    </>
  );
}

function triedKey(address: string, key: string): string {
  return JSON.stringify([address.trim(), key.trim()]);
}

/** An address or key typed and not saved yet; `failed`: Connect tried them as they are, and failed (its message says why). */
function UnsavedNote({ settings, address, apiKey, failed }: { settings: Settings; address: string; apiKey: string; failed: boolean }) {
  // An address no longer taken as it was saved (a port Chrome refuses, say) is still the one saved: its refusal says why.
  const newAddress = (storedAs(address) ?? address.trim()) !== settings.openaiBaseUrl;
  if (!newAddress && apiKey.trim() === settings.openaiApiKey) return null;
  const until = failed ? 'Not saved, as Connect failed.' : 'Not saved yet: press Connect.';
  return (
    <p class="muted" data-testid="address-unsaved">
      {newAddress ? `${until} The agent uses ${settings.openaiBaseUrl} until then.` : failed ? 'The key is not saved, as Connect failed.' : 'The key is not saved yet: press Connect.'}
    </p>
  );
}

/**
 * What a field shows: what the person typed (kept in `draft` while the section is closed), or the
 * setting as stored once that changes: the address written out in full by Connect (the text typed,
 * `asStored`, is the new setting), or either changed elsewhere where the field was left as it
 * was. An edit not saved yet stays as typed when another options tab connects (its note says what
 * the agent uses until Connect). Only then: the effect runs after the first paint, when the person
 * may be typing.
 */
function useShownSetting(stored: string, draft: FieldDraft, asStored: (typed: string) => string): Signal<string> {
  if (draft.stored.peek() === undefined) {
    draft.stored.value = stored;
    draft.shown.value = stored;
  }
  useEffect(() => {
    const before = draft.stored.peek();
    if (before === stored) return;
    draft.stored.value = stored;
    const typed = draft.shown.peek();
    if (typed === before || asStored(typed) === stored) draft.shown.value = stored;
  }, [stored]);
  return draft.shown;
}

interface AddressFormProps {
  model: OptionsModel;
  settings: Settings;
  address: Signal<string>;
  apiKey: Signal<string>;
  connecting: boolean;
  /** The note that says where the address sends the page's words, when there is one. */
  describedBy: string | undefined;
  /** The field the last Connect refused as it is typed now, and the failure that says why. */
  refused: { field: 'address' | 'key'; by: string } | undefined;
  /** Connect was pressed, with the address and key as typed now. */
  onConnect(): void;
}

function AddressForm({ model, settings, address, apiKey, connecting, describedBy, refused, onConnect }: AddressFormProps) {
  const refusedBy = (field: 'address' | 'key') => (refused?.field === field ? refused.by : undefined);
  // The key saved is its server's alone: an address of another server takes it out of the field,
  // for that server's key (none, for most), rather than send it there; back to the saved server, it
  // returns. A key typed, or emptied, by the person stays as they left it.
  const takenOut = useRef(false);
  const { startButton: connectButton, cancelButton } = useCancelButton(connecting, model.cancelServerConnect);
  const followAddress = (typed: string) => {
    const same = sameServerOrigin(typed, settings.openaiBaseUrl);
    if (!same && apiKey.value.trim() === settings.openaiApiKey && settings.openaiApiKey !== '') {
      apiKey.value = '';
      takenOut.current = true;
    } else if (same && takenOut.current && apiKey.value === '') {
      apiKey.value = settings.openaiApiKey;
      takenOut.current = false;
    }
  };
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        onConnect();
        void model.connectServer(address.value, apiKey.value);
      }}
    >
      <label class="field grow">
        <span>Address</span>
        {/* Text, not url: Chromium's own check would refuse "localhost:11434", which Connect accepts. */}
        <input
          type="text"
          inputMode="url"
          data-place="server-address"
          spellcheck={false}
          autocomplete="off"
          // The address being tried stays as it is until the server answers, or the answer would be about another.
          readOnly={connecting}
          aria-invalid={refusedBy('address') ? true : undefined}
          aria-describedby={[describedBy, refusedBy('address')].filter(Boolean).join(' ') || undefined}
          value={address.value}
          onInput={(event) => {
            address.value = event.currentTarget.value;
            followAddress(address.value);
            model.editServerAddress();
          }}
        />
      </label>
      {/* Sent to this server alone; local servers ask for none unless started with one. */}
      <label class="field grow">
        <span>API key, if the server asks for one</span>
        <input
          type="password"
          data-place="server-key"
          spellcheck={false}
          autocomplete="off"
          readOnly={connecting}
          aria-invalid={refusedBy('key') ? true : undefined}
          aria-describedby={refusedBy('key')}
          value={apiKey.value}
          onInput={(event) => {
            apiKey.value = event.currentTarget.value;
            model.editServerAddress();
          }}
        />
      </label>
      <BusyButton type="submit" busy={connecting} buttonRef={connectButton}>
        {connecting ? 'Connecting…' : 'Connect'}
      </BusyButton>
      {/* A server that takes the connection and never answers keeps Connect waiting its full time. */}
      {connecting && (
        <button type="button" aria-label="Cancel connecting" aria-keyshortcuts="Escape" {...cancelButton}>
          Cancel
        </button>
      )}
    </form>
  );
}

/**
 * The server's models to choose from, those that only make embeddings apart at the end (servers list
 * them with the rest; they cannot chat), and one picked before that the server no longer has.
 */
function ServerModelPicker({ model, settings, models, firstChat }: { model: OptionsModel; settings: Settings; models: readonly string[]; firstChat: string | undefined }) {
  const embedding = models.filter(isEmbeddingModel);
  const options = (ids: readonly string[]) =>
    ids.map((id) => (
      <option value={id} key={id}>
        {id}
      </option>
    ));
  return (
    <label class="field">
      <span>Model</span>
      <select value={settings.model} data-place="model" onChange={(event) => void model.pickServerModel(event.currentTarget.value)}>
        <option value="">{firstChat === undefined ? "The server's first chat model (it has none)" : `The server's first chat model (${firstChat})`}</option>
        {options(models.filter((id) => !isEmbeddingModel(id)))}
        {embedding.length > 0 && <optgroup label="Embedding models, which cannot chat">{options(embedding)}</optgroup>}
        {/* Picked on this server before, gone from it since: said, not shown as another model. */}
        {settings.model && !models.includes(settings.model) && <option value={settings.model}>{settings.model} (not on this server)</option>}
      </select>
    </label>
  );
}

// A server with no models answers Connect, but no request: say so now, not at the first request.
function connectedText(models: readonly string[], gone: string | undefined, firstChat: string | undefined): string {
  if (models.length === 0) return 'Connected, but the server has no models. Get one there first (for Ollama, run ollama pull qwen3:1.7b; in LM Studio, load a model in its Developer tab), then press Connect again.';
  if (firstChatModel(models) === undefined) {
    return 'Connected, but the server has only embedding models, which cannot chat. Download a chat model first (for Ollama, run ollama pull qwen3:1.7b), then press Connect again.';
  }
  // The model in use was not on this server: the agent takes its first, until another is picked.
  const instead = gone === undefined ? '' : ` It has no "${gone}": the agent uses its first chat model (${firstChat}) until you pick one below.`;
  return `Connected: ${plural(models.length, 'model')}.${instead}`;
}

/**
 * What a server that is not this computer gets: every prompt, which holds the page's text and what
 * its tools return; over plain http, anyone on the network on the way can read it too. Said, not
 * refused: a bigger GPU on the same network is a fair choice.
 */
function elsewhereNote(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (isOnThisMachine(url.hostname)) return undefined;
  const sent = `${url.hostname} is not this computer: each request sends it the page's text and what the page's tools return.`;
  return url.protocol === 'http:' ? `${sent} The address is plain http, so anyone on the network between this computer and the server can read it too, and the API key, if one is set.` : sent;
}

/** Whether a typed address is one of the server at `stored` (its scheme, host and port). */
function sameServerOrigin(typed: string, stored: string): boolean {
  const [address, saved] = [storedAs(typed), storedAs(stored)];
  return address !== undefined && saved !== undefined && new URL(address).origin === new URL(saved).origin;
}

/** A key as Connect would store it; one it would refuse, as typed. */
function keyStoredAs(typed: string): string {
  try {
    return normalizeServerKey(typed);
  } catch {
    return typed;
  }
}

// The address as Connect would keep it (written out in full, with /v1); a typo is never "the same".
function storedAs(typed: string): string | undefined {
  try {
    return normalizeServerAddress(typed);
  } catch {
    return undefined;
  }
}
