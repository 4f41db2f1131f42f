import { signal, type ReadonlySignal } from '@preact/signals';
import { normalizeSiteOrigin, type SettingsChange } from '@/lib/settings';
import type { SiteFailure, SiteList } from './options-types';

/**
 * The sites where the agent is off, and those allowed: each kept as an origin, and a site the page
 * cannot keep refused in words that say what to type instead, marked on its own list's field.
 */
export function createSiteLists(update: (change: SettingsChange) => Promise<void>) {
  const failure = signal<SiteFailure | undefined>(undefined);
  return {
    failure: failure as ReadonlySignal<SiteFailure | undefined>,
    /** Adds a site to a list; answers the site as kept (an origin), or undefined when refused. */
    async add(list: SiteList, text: string): Promise<string | undefined> {
      const origin = text.includes('*') ? undefined : normalizeSiteOrigin(text);
      failure.value = origin ? undefined : { list, attempt: (failure.value?.attempt ?? 0) + 1, message: siteRefusal(text) };
      // Changed as the list is when written: the side panel may change it at the same moment.
      if (origin) await update((current) => (current[list].includes(origin) ? {} : { [list]: [...current[list], origin] }));
      return origin;
    },
    remove(list: SiteList, origin: string): Promise<void> {
      return update((current) => ({ [list]: current[list].filter((site) => site !== origin) }));
    },
  };
}

/** Why `text` is not a site the lists can keep, and what to type instead. */
function siteRefusal(text: string): string {
  if (!text.trim()) return 'Type a site first, such as shop.example.com.';
  if (text.includes('*')) return `Leave out the *: "shop.example.com" is enough (where the agent is off, it covers the site's subdomains too).`;
  const first = firstOfList(text);
  if (first !== undefined) return `One site at a time: add "${first}", then the next.`;
  if (/^[\w-]+(:\d+)?$/.test(text.trim())) {
    return `${quoted(text)} is not a web address, such as shop.example.com. A site on your own network takes its scheme: http://${text.trim()}.`;
  }
  return `${quoted(text)} is not a web address, such as shop.example.com.`;
}

/** What the person typed, in quotes: a pasted page of text is not said back whole. */
function quoted(text: string): string {
  const shown = Array.from(text);
  return `"${shown.length > 80 ? `${shown.slice(0, 79).join('')}…` : text}"`;
}

/**
 * The first site of a pasted list ("a.example, b.example", "a.example;b.example", "a.example
 * b.example"), if `text` is one, as typed: its scheme kept, which a site on a network needs.
 */
function firstOfList(text: string): string | undefined {
  const host = text.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
  const parts = host.split(/[,;\s]+/).filter((part) => part.length > 0);
  const isList = /[,;]/.test(host) || (parts.length > 1 && parts.every((part) => part.includes('.')));
  return isList ? (text.trim().split(/[,;\s]+/)[0] || 'shop.example.com') : undefined;
}
