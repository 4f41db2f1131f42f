/** What the network answers for a URL the Cache API fetches. */
export type Network = (url: string) => Response | Promise<Response>;

/**
 * Chrome's Cache API in memory, installed as `globalThis.caches` for WebLLM's own code to use.
 * `add` fetches from `network` as Chrome does (measured in headless Chromium): an answer that is
 * not 2xx rejects with Chrome's own TypeError; a redirect to a captive portal's page is a 200 like
 * any other, so the page is stored in the file's place. Returns what was fetched, and how to
 * uninstall it.
 */
export function installChromeCaches(network: { current: Network }) {
  const stores = new Map<string, Map<string, Response>>();
  const fetched: string[] = [];
  const urlOf = (request: Request | string) => (typeof request === 'string' ? request : request.url);
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const entries = stores.get(name)!;
    return {
      async match(request: Request | string) {
        return entries.get(urlOf(request))?.clone();
      },
      async add(request: Request | string) {
        const url = urlOf(request);
        fetched.push(url);
        const response = await network.current(url);
        if (!response.ok) throw new TypeError("Failed to execute 'add' on 'Cache': Request failed");
        entries.set(url, response);
      },
      async put(request: Request | string, response: Response) {
        entries.set(urlOf(request), response);
      },
      async keys() {
        return [...entries.keys()].map((url) => new Request(url));
      },
      async delete(request: Request | string) {
        return entries.delete(urlOf(request));
      },
    };
  };
  const caches = {
    open,
    has: async (name: string) => stores.has(name),
    delete: async (name: string) => stores.delete(name),
    keys: async () => [...stores.keys()],
  };
  const before = { caches: Reflect.get(globalThis, 'caches'), location: Reflect.get(globalThis, 'location') };
  // WebLLM reads `location.origin` to tell an extension's own files from the network's.
  Object.assign(globalThis, { caches, location: { origin: 'chrome-extension://test' } });
  return {
    caches,
    stores,
    fetched,
    uninstall() {
      Object.assign(globalThis, before);
    },
  };
}
