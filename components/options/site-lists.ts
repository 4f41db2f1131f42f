import { signal, type ReadonlySignal } from '@preact/signals';
import { agentOffBy, normalizeSiteOrigin, type SettingsChange } from '@/lib/settings';
import type { SiteFailure, SiteList } from './options-types';

/**
 * The sites where the agent is off, and those allowed: each kept as an origin, and a site the page
 * cannot keep refused in words that say what to type instead, marked on its own list's field (each
 * list keeps its own refusal until its next add).
 */
export function createSiteLists(update: (change: SettingsChange) => Promise<boolean>) {
  const failures = signal<Partial<Record<SiteList, SiteFailure>>>({});
  const refuse = (list: SiteList, message: string | undefined) => {
    const attempt = (failures.value[list]?.attempt ?? 0) + 1;
    failures.value = { ...failures.value, [list]: message === undefined ? undefined : { attempt, message } };
  };
  return {
    failures: failures as ReadonlySignal<Partial<Record<SiteList, SiteFailure>>>,
    /**
     * Adds a site to a list; answers the site as kept (an origin, also where it was listed
     * already), or undefined when refused (not a site, or one the agent is already off on) or
     * not saved (the page says why).
     */
    async add(list: SiteList, text: string): Promise<string | undefined> {
      const origin = text.includes('*') ? undefined : normalizeSiteOrigin(text);
      if (!origin) {
        refuse(list, siteRefusal(text, list));
        return undefined;
      }
      let coveredBy: string | undefined;
      // Changed as the list is when written: the side panel may change it at the same moment.
      const saved = await update((current) => {
        coveredBy = undefined;
        if (current[list].includes(origin)) return {};
        // Where the agent is off, an entry covers the site's subdomains, and without a port all its
        // ports (`agentOffOn`): a second entry for them would change nothing.
        coveredBy = list === 'disabledSites' ? agentOffBy(current.disabledSites, origin)[0] : undefined;
        return coveredBy ? {} : { [list]: [...current[list], origin] };
      });
      refuse(list, coveredBy ? `The agent is already off on ${origin}: ${coverage(coveredBy, origin)}.` : undefined);
      return coveredBy || !saved ? undefined : origin;
    },
    /** Answers whether the list was saved without the site. */
    remove(list: SiteList, origin: string): Promise<boolean> {
      return update((current) => ({ [list]: current[list].filter((site) => site !== origin) }));
    },
  };
}

/** How `entry`, on the list where the agent is off, covers `origin`. */
function coverage(entry: string, origin: string): string {
  return hostOf(entry) === hostOf(origin) ? `${entry} covers it already` : `${entry} covers its subdomains`;
}

/** A site's host as `agentOffOn` compares it (an entry older versions kept as ".bank.example" too). */
function hostOf(site: string): string {
  try {
    return new URL(site).hostname.replace(/^\.+|\.$/g, '');
  } catch {
    return site;
  }
}

/** Why `text` is not a site `list` can keep, and what to type instead. */
function siteRefusal(text: string, list: SiteList): string {
  if (!text.trim()) return 'Type a site first, such as shop.example.com.';
  if (text.includes('*')) {
    // The person's own site, where taking the * out leaves one ("*.bank.example" → "bank.example"),
    // with the scheme they typed: an allowed entry is that scheme's site alone.
    const site = typedHost(text).replace(/^[*.]+/, '');
    const own = !site.includes('*') && normalizeSiteOrigin(site) !== undefined ? site : undefined;
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text.trim())?.[0].toLowerCase() ?? '';
    return list === 'disabledSites'
      ? `Leave out the *: "${own ?? 'shop.example.com'}" is enough (where the agent is off, it covers the site's subdomains too).`
      : `Leave out the *: add each site as its address, such as ${own ? `${scheme}${own} or ${scheme}app.${own}` : 'app.shop.example.com'} (an entry here allows that site only, not its subdomains).`;
  }
  const first = firstOfList(text);
  if (first !== undefined) return `One site at a time: add "${first}", then the next.`;
  // A port goes up to 65535: past it, no scheme makes an address of it.
  const port = /:(\d+)$/.exec(typedHost(text))?.[1];
  if (port !== undefined && Number(port) > 65_535) return `${quoted(text)} is not a web address: a port goes up to 65535.`;
  if (port !== undefined && Number(port) === 0) return `${quoted(text)} is not a web address: no page is served from port 0.`;
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

/** What the person typed before its path, without its scheme: the host, and its port if any. */
function typedHost(text: string): string {
  return text.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
}

/**
 * The first site of a pasted list ("a.example, b.example", "a.example;b.example", "a.example
 * b.example"), if `text` is one, as typed: its scheme kept, which a site on a network needs.
 */
function firstOfList(text: string): string | undefined {
  const host = typedHost(text);
  const parts = host.split(/[,;\s]+/).filter((part) => part.length > 0);
  const isList = /[,;]/.test(host) || (parts.length > 1 && parts.every((part) => part.includes('.')));
  return isList ? (text.trim().split(/[,;\s]+/)[0] || 'shop.example.com') : undefined;
}
