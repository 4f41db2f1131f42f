// Each polyfilled context's latest listing, for the page-world bridge: posts wait for each other
// (see pacePosts), so a `getTools()` that is slow or never settles must not hold the next ones.
import type { ToolAdapter } from '../adapters/tool-adapter';

/** How long one adapter's listing may take before the bridge posts without waiting for it. */
export const listingWaitMs = 3_000;

export interface AdapterListing {
  tools: unknown[];
  /** The listing took longer than `listingWaitMs`: `tools` is the last one that came. */
  late: boolean;
}

/**
 * Lists adapters within `listingWaitMs`. A listing that takes longer gives the last one that came
 * in its place (none the first time); when it does come, it is kept unless a later call of that
 * adapter answered first, and where there was nothing to put in its place, `onLateAnswer` asks for
 * a post, so a polyfill slow to answer its first `getTools()` still gets its tools posted.
 */
export function createAdapterListings(onLateAnswer: () => void): (adapter: ToolAdapter) => Promise<AdapterListing> {
  const kept = new WeakMap<ToolAdapter, { call: number; tools: unknown[] }>();
  let calls = 0;
  const keep = (adapter: ToolAdapter, call: number, tools: unknown[]): void => {
    if ((kept.get(adapter)?.call ?? 0) < call) kept.set(adapter, { call, tools });
  };
  return async (adapter) => {
    const call = ++calls;
    const before = kept.get(adapter);
    let late = false;
    const answer: Promise<unknown[]> = adapter.list().catch(() => []);
    void answer.then((tools) => {
      keep(adapter, call, tools);
      if (late && before === undefined) onLateAnswer();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<AdapterListing>((resolve) => {
      timer = setTimeout(() => {
        late = true;
        resolve({ tools: kept.get(adapter)?.tools ?? [], late: true });
      }, listingWaitMs);
    });
    try {
      return await Promise.race([answer.then((tools) => ({ tools, late: false })), waited]);
    } finally {
      clearTimeout(timer);
    }
  };
}
