import { createLegacyContextAdapter, isLegacyContextLike, type LegacyContextLike } from '../adapters/legacy-context-adapter';
import { createModelContextAdapter, isModelContextLike } from '../adapters/model-context-adapter';
import { withRegisteredHints } from '../adapters/registered-hints';
import { createTestingApiAdapter, isTestingApiLike } from '../adapters/testing-api-adapter';
import { readProperty, type ToolAdapter } from '../adapters/tool-adapter';

export interface AdapterDiscovery {
  /** Looks for contexts the page has installed since the last look. */
  discover(): void;
  /** The adapters found so far, in priority order. */
  adapters(): readonly ToolAdapter[];
}

/**
 * Finds the JavaScript contexts a page installs: `document.modelContext` or `navigator.modelContext`
 * from a polyfill, the older testing API, or an older context to follow. The browser's own
 * objects (captured before any page script ran) are skipped: the content script reads those.
 */
export function createAdapterDiscovery(onChange: () => void): AdapterDiscovery {
  const browserOwn = new Set<unknown>([
    readProperty(document, 'modelContext'),
    readProperty(navigator, 'modelContext'),
    readProperty(navigator, 'modelContextTesting'),
  ]);
  const seen = new WeakSet<object>();
  const found: ToolAdapter[] = [];
  return {
    discover() {
      const pageContext = readProperty(document, 'modelContext');
      const candidates = [pageContext, navigatorContext(pageContext, browserOwn), readProperty(navigator, 'modelContextTesting')];
      for (const candidate of candidates) {
        if (typeof candidate !== 'object' || candidate === null) continue;
        if (browserOwn.has(candidate) || seen.has(candidate)) continue;
        seen.add(candidate);
        const adapter = adapt(candidate);
        if (!adapter) continue;
        found.push(adapter);
        adapter.watch(onChange);
        onChange();
      }
    },
    adapters: () => found,
  };
}

/**
 * `navigator.modelContext`, where it may be a context of its own: not a getter that a page set up
 * beside a `document.modelContext` of its own, which is a polyfill's way to the same context for
 * older pages, and may warn on the page's console at each read (`@mcp-b/webmcp-polyfill` 5 does:
 * its author would look for a read that is not theirs).
 */
function navigatorContext(pageContext: unknown, browserOwn: ReadonlySet<unknown>): unknown {
  const besidePageContext = typeof pageContext === 'object' && pageContext !== null && !browserOwn.has(pageContext);
  return besidePageContext && isGetter(navigator, 'modelContext') ? undefined : readProperty(navigator, 'modelContext');
}

/** Whether `key` of `target` (or of its prototypes) is read through a getter. */
function isGetter(target: object, key: string): boolean {
  try {
    for (let holder: object | null = target; holder !== null; holder = Object.getPrototypeOf(holder)) {
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      if (descriptor) return descriptor.get !== undefined;
    }
  } catch {
    // A page's proxy that throws: read as a value.
  }
  return false;
}

function adapt(candidate: object): ToolAdapter | undefined {
  if (isModelContextLike(candidate)) {
    const adapter = createModelContextAdapter(candidate, window, { nullIsNavigation: false });
    // A polyfill with `registerTool`: what the page registered says which hints it meant (not its
    // own records of the tools, which may have dropped them).
    return isLegacyContextLike(candidate)
      ? withRegisteredHints(adapter, createLegacyContextAdapter(candidate as LegacyContextLike, { readStore: false }))
      : adapter;
  }
  if (isTestingApiLike(candidate)) return createTestingApiAdapter(candidate);
  if (isLegacyContextLike(candidate)) return createLegacyContextAdapter(candidate);
  return undefined;
}
