import { agentOffBy, agentOffOn } from './agent-off-on';
import { normalizeSiteOrigin } from './normalize-site-origin';

/**
 * The list of sites where the agent is off, once the person turned it off (or back on) on the
 * site `origin` from the side panel; the same list where nothing changes.
 *
 * Off adds the site as the options page keeps a typed one (its origin), unless an entry covers it
 * already. On removes every entry that covers the site, a wider one ("bank.example" for
 * www.bank.example) included: the list cannot say "off on bank.example but here", and removing
 * only this site's own entry would leave the agent off here with nothing said. The panel names
 * a wider entry on its button before it is pressed, so the person knows what else turns on.
 * Throws for an origin that is no web site (a file, a browser page): nothing to list there.
 */
export function disabledSitesWith(disabledSites: readonly string[], origin: string, off: boolean): readonly string[] {
  if (!off) {
    const covering = agentOffBy(disabledSites, origin);
    return covering.length === 0 ? disabledSites : disabledSites.filter((entry) => !covering.includes(entry));
  }
  const site = normalizeSiteOrigin(origin);
  if (site === undefined) throw new Error(`The agent can be turned off on web sites only, not on ${origin || 'this page'}.`);
  return agentOffOn(disabledSites, site) ? disabledSites : [...disabledSites, site];
}
