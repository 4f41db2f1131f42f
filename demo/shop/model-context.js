// The page's WebMCP entry point: the browser's own when it has one, otherwise the polyfill's.
const polyfillUrl = '/vendor/webmcp-polyfill.js';

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () => resolve(undefined);
    script.onerror = () => reject(new Error(`Could not load ${url}.`));
    document.head.append(script);
  });
}

/** @returns {Promise<{ modelContext: any, source: 'browser' | 'polyfill' }>} */
export async function connectModelContext() {
  if (document.modelContext) return { modelContext: document.modelContext, source: 'browser' };
  await loadScript(polyfillUrl);
  // Older polyfills installed navigator.modelContext, before the API moved to document.
  const modelContext = document.modelContext ?? navigator.modelContext;
  if (!modelContext) throw new Error('the WebMCP polyfill did not install (the page needs a secure context)');
  return { modelContext, source: 'polyfill' };
}
