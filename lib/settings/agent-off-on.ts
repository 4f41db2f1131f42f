/**
 * Whether the agent is off on `origin` by the person's list. An entry covers its site on either
 * scheme and every subdomain of it, since "bank.example" is meant to keep the agent off
 * www.bank.example too, and on every port unless it names one ("localhost" covers localhost:3000,
 * "localhost:3000" only that port): for a privacy list, a miss is the harmful mistake. (The list
 * of sites whose tools may run without asking is matched exactly: there a miss only asks once more.)
 */
export function agentOffOn(disabledSites: readonly string[], origin: string): boolean {
  const site = hostAndPort(origin);
  if (!site) return disabledSites.includes(origin);
  return disabledSites.some((entry) => {
    const off = hostAndPort(entry);
    if (!off) return entry === origin;
    // A scheme's default port is no port to the URL parser: such an entry covers them all.
    const port = off.port === '' || off.port === site.port;
    return port && (site.hostname === off.hostname || site.hostname.endsWith(`.${off.hostname}`));
  });
}

/** The entries of the list that keep the agent off on `origin` (by the rules of `agentOffOn`): none where it is on. */
export function agentOffBy(disabledSites: readonly string[], origin: string): string[] {
  return disabledSites.filter((entry) => agentOffOn([entry], origin));
}

function hostAndPort(origin: string): { hostname: string; port: string } | undefined {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // "bank.example." is bank.example to a person, though Chrome gives the page its own origin;
    // so is ".bank.example", an entry older versions kept as typed.
    return { hostname: url.hostname.replace(/^\.+|\.$/g, ''), port: url.port };
  } catch {
    return undefined;
  }
}
