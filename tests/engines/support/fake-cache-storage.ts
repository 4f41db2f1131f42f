import type { CacheLike, CacheStorageLike } from '../../../lib/engines/webllm/model-storage';

/** The Cache API in memory, holding real `Request` and `Response` objects as Chrome does. */
export function createFakeCacheStorage() {
  const caches = new Map<string, Map<string, Response>>();

  function cacheNamed(name: string): CacheLike {
    const entries = caches.get(name)!;
    const urlOf = (request: Request | string) => (typeof request === 'string' ? request : request.url);
    return {
      async keys() {
        return [...entries.keys()].map((url) => new Request(url));
      },
      async match(request) {
        return entries.get(urlOf(request))?.clone();
      },
      async delete(request) {
        return entries.delete(urlOf(request));
      },
    };
  }

  const storage: CacheStorageLike = {
    async has(name) {
      return caches.has(name);
    },
    async open(name) {
      if (!caches.has(name)) caches.set(name, new Map());
      return cacheNamed(name);
    },
    async delete(name) {
      return caches.delete(name);
    },
  };

  /** Stores a file as WebLLM would after fetching it; `bytes` is what the server said it sent. */
  function put(cacheName: string, url: string, bytes: number, body?: string) {
    if (!caches.has(cacheName)) caches.set(cacheName, new Map());
    const headers: Record<string, string> = body === undefined ? { 'content-length': String(bytes) } : {};
    caches.get(cacheName)!.set(url, new Response(body ?? null, { headers }));
  }

  return { storage, put, caches };
}
