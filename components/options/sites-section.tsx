import { useSignal, type Signal } from '@preact/signals';
import type { Ref } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Settings } from '@/lib/settings';
import type { OptionsModel } from './options-model';
import type { SiteList } from './options-types';
import { AddressText } from '@/components/shared/address-text';
import { speaksPlainHttp } from '@/lib/settings';
import type { OptionsPlace } from '@/lib/sidepanel/options-place';

/** The sites where the agent is off, and those whose page-changing tools run without asking. */
export function SitesSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  return (
    <section aria-labelledby="sites-heading">
      <h2 id="sites-heading">Sites</h2>
      <SiteListEditor
        model={model}
        list="disabledSites"
        sites={settings.disabledSites}
        title="Sites where the agent is off (each with its subdomains)"
        place="sites"
        hint="A site given without a port (or with its usual one, such as :443) covers all its ports; localhost:3000 covers only that one."
      />
      <SiteListEditor
        model={model}
        list="allowedSites"
        sites={settings.allowedSites}
        title="Sites whose tools may change the page without asking (tools marked consequential still ask)"
        hint={'Unlike the list above, each entry is that site exactly, as "Allow on this site" in the side panel adds it: its scheme, host and port (localhost:3000 is not localhost:8080); its subdomains are not included.'}
      />
    </section>
  );
}

interface SiteListEditorProps {
  model: OptionsModel;
  list: SiteList;
  sites: readonly string[];
  title: string;
  /** What else to know of an entry, under the title and read with the field. */
  hint?: string;
  /** Where a notice in the side panel may send the person (`OptionsPlace`). */
  place?: OptionsPlace;
}

function SiteListEditor({ model, list, sites, title, hint, place }: SiteListEditorProps) {
  const draft = useSignal('');
  // What the last add or removal did, for a screen reader: the list changes out of its sight.
  const said = useSignal('');
  const input = useRef<HTMLInputElement>(null);
  const refusal = model.siteFailures.value[list];
  const failure = refusal?.message;
  const failureId = `${list}-failure`;
  const hintId = `${list}-hint`;
  return (
    <div class="site-list" data-testid={list}>
      <h3 tabIndex={place ? -1 : undefined} data-place={place}>
        {title}
      </h3>
      {hint && (
        <p class="muted" id={hintId} data-testid={hintId}>
          {hint}
        </p>
      )}
      <SiteRows sites={sites} onRemove={removeSite(model, list, said)} afterLast={() => input.current?.focus()} />
      <form class="row" onSubmit={addSite(model, list, sites, draft, said)}>
        <SiteInput
          input={input}
          title={title}
          failure={failure}
          failureId={failureId}
          hintId={hint ? hintId : undefined}
          value={draft.value}
          onText={(text) => (draft.value = text)}
        />
        <button type="submit" aria-label={`Add to: ${title}`}>
          Add
        </button>
      </form>
      {/* An alert, so that a refused site is heard: the field keeps the text and nothing else changes.
          Keyed by the attempt: a screen reader says an alert when it appears, so a second refusal in
          the same words must be a new one. */}
      <p class="visually-hidden" role="status" data-testid={`${list}-status`}>
        {said.value}
      </p>
      {failure && (
        <p key={refusal?.attempt} id={failureId} class="notice tone-error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}

/** Remove, then say so: the site's row goes out of a screen reader's sight. */
function removeSite(model: OptionsModel, list: SiteList, said: Signal<string>) {
  return async (origin: string) => {
    // Not saved: the page says why, and the site stays listed.
    if (await model.removeSite(list, origin)) said.value = `Removed ${origin}.`;
  };
}

/** Add what the field holds (read when the form is sent), then clear it and say what happened. */
function addSite(model: OptionsModel, list: SiteList, sites: readonly string[], draft: Signal<string>, said: Signal<string>) {
  return async (event: Event) => {
    event.preventDefault();
    const listed = new Set(sites);
    const added = await model.addSite(list, draft.value);
    // Refused: the message under the field says why; what an earlier add did is old news.
    if (added === undefined) {
      said.value = '';
      return;
    }
    const typed = draft.value;
    draft.value = '';
    said.value = listed.has(added) ? `${added} is already listed.` : `Added ${added}${list === 'allowedSites' ? onlyPortNote(added, typed) : ''}.`;
  };
}

/**
 * Where an allowed site on this machine was typed without a port: it is taken on its scheme's own
 * (80, or 443 for https), and the server there, likely on another one, still asks. Said, as the
 * entry shows no port.
 */
function onlyPortNote(origin: string, typed: string): string {
  const url = new URL(origin);
  const portTyped = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\[[^\]]*\]|[^/\\:?#]*):\d/i.test(typed.trim());
  if (portTyped || url.port !== '' || !speaksPlainHttp(url.hostname)) return '';
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  return `, on port ${defaultPort} only. To allow a server on another port, add it with its port, such as ${url.hostname}:8080`;
}

interface SiteInputProps {
  input: Ref<HTMLInputElement>;
  title: string;
  failure: string | undefined;
  failureId: string;
  hintId: string | undefined;
  value: string;
  onText(text: string): void;
}

/** The field for a new site; a refusal marks it invalid and points at its message. */
function SiteInput({ input, title, failure, failureId, hintId, value, onText }: SiteInputProps) {
  const describedBy = [failure ? failureId : undefined, hintId].filter(Boolean).join(' ');
  return (
    <input
      ref={input}
      type="text"
      placeholder="shop.example.com"
      aria-label={`Add to: ${title}`}
      aria-invalid={failure ? 'true' : undefined}
      aria-describedby={describedBy || undefined}
      value={value}
      onInput={(event) => onText(event.currentTarget.value)}
    />
  );
}

interface SiteRowsProps {
  sites: readonly string[];
  onRemove(origin: string): Promise<unknown>;
  /** Where focus goes once the last site is removed. */
  afterLast(): void;
}

/**
 * The sites of one list, each with its Remove button. A removed site takes its focused button
 * with it: focus moves on to the next site's Remove (the previous one's at the end of the list).
 */
function SiteRows({ sites, onRemove, afterLast }: SiteRowsProps) {
  const list = useRef<HTMLUListElement>(null);
  // The row whose Remove was pressed, until the list is drawn without it (the settings may be
  // drawn again before that, still with it).
  const removed = useRef<{ origin: string; index: number } | undefined>(undefined);
  useEffect(() => {
    if (removed.current === undefined || sites.includes(removed.current.origin)) return;
    const { index } = removed.current;
    removed.current = undefined;
    const buttons = list.current?.querySelectorAll('button') ?? [];
    const next = buttons[Math.min(index, buttons.length - 1)];
    if (next) next.focus();
    else afterLast();
  }, [sites]);

  if (sites.length === 0) return <p class="muted">None.</p>;
  return (
    <ul ref={list}>
      {sites.map((origin, index) => (
        <li key={origin}>
          <span><AddressText text={origin} /></span>
          <button
            type="button"
            class="link"
            aria-label={`Remove ${origin}`}
            onClick={() => {
              removed.current = { origin, index };
              void onRemove(origin);
            }}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
