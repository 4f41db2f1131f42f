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
  // The entries for the site's host and each host it is a subdomain of: a look-up per label of
  // its name, however long the list (a request reads it for every tool of the page).
  const { byHost } = readList(disabledSites);
  const labels = site.hostname.split('.');
  return labels.some((_, index) => byHost.get(labels.slice(index).join('.'))?.some((port) => covers(port, site)) ?? false);
}

/** The entries of the list that keep the agent off on `origin` (by the rules of `agentOffOn`): none where it is on. */
export function agentOffBy(disabledSites: readonly string[], origin: string): string[] {
  const site = hostAndPort(origin);
  if (!site) return disabledSites.filter((entry) => entry === origin);
  return readList(disabledSites).entries.flatMap(({ entry, off }) => (off && covers(off.port, site) && coversHost(off.hostname, site.hostname) ? [entry] : []));
}

/** An entry's host covers itself and its subdomains (what `agentOffOn` looks up label by label). */
function coversHost(host: string, siteHost: string): boolean {
  return siteHost === host || siteHost.endsWith(`.${host}`);
}

/** A scheme's default port is no port to the URL parser: an entry without one covers them all. */
function covers(port: string, site: { port: string }): boolean {
  return port === '' || port === site.port;
}

interface ReadList {
  entries: Array<{ entry: string; off: { hostname: string; port: string } | undefined }>;
  /** The ports of the entries for each host ('' for every port). */
  byHost: Map<string, string[]>;
}

// Each list as read, kept while the list is: the settings a request loads are read once for all its
// checks. The settings loaded again bring a copy of the same list: the last one read is known by its words.
const readLists = new WeakMap<readonly string[], ReadList>();
let lastRead: { words: string; read: ReadList } | undefined;

function readList(list: readonly string[]): ReadList {
  let read = readLists.get(list);
  if (read) return read;
  const words = JSON.stringify(list);
  if (lastRead?.words === words) {
    readLists.set(list, lastRead.read);
    return lastRead.read;
  }
  const entries = list.map((entry) => ({ entry, off: hostAndPort(entry) }));
  const byHost = new Map<string, string[]>();
  for (const { off } of entries) {
    if (!off) continue;
    const ports = byHost.get(off.hostname);
    if (ports) ports.push(off.port);
    else byHost.set(off.hostname, [off.port]);
  }
  read = { entries, byHost };
  readLists.set(list, read);
  lastRead = { words, read };
  return read;
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
