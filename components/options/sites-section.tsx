import { useSignal } from '@preact/signals';
import type { Settings } from '@/lib/settings';
import type { OptionsModel, SiteList } from './options-model';

/** The sites where the agent is off, and those whose page-changing tools run without asking. */
export function SitesSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  return (
    <section aria-labelledby="sites-heading">
      <h2 id="sites-heading">Sites</h2>
      <SiteListEditor model={model} list="disabledSites" sites={settings.disabledSites} title="Sites where the agent is off (each with its subdomains)" />
      <SiteListEditor
        model={model}
        list="allowedSites"
        sites={settings.allowedSites}
        title="Sites whose tools may change the page without asking (tools marked consequential still ask)"
      />
      {model.siteFailure.value && <p class="notice tone-error">{model.siteFailure.value}</p>}
    </section>
  );
}

function SiteListEditor({ model, list, sites, title }: { model: OptionsModel; list: SiteList; sites: readonly string[]; title: string }) {
  const draft = useSignal('');
  return (
    <div class="site-list" data-testid={list}>
      <h3>{title}</h3>
      {sites.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul>
          {sites.map((origin) => (
            <li key={origin}>
              <span>{origin}</span>
              <button type="button" class="link" onClick={() => void model.removeSite(list, origin)} aria-label={`Remove ${origin}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="row"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await model.addSite(list, draft.value)) draft.value = '';
        }}
      >
        <input
          type="text"
          placeholder="shop.example.com"
          aria-label={`Add to: ${title}`}
          value={draft.value}
          onInput={(event) => (draft.value = event.currentTarget.value)}
        />
        <button type="submit" aria-label={`Add to: ${title}`}>
          Add
        </button>
      </form>
    </div>
  );
}
