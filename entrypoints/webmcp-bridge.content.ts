import { setupMainWorldBridge } from '../lib/webmcp/bridge/main-world-bridge';

// The page's own world, before its scripts: polyfills and older contexts are JavaScript objects
// an isolated content script cannot see. Declared here (not injected) so no page can load it.
export default defineContentScript({
  matches: ['<all_urls>'],
  runAt: 'document_start',
  allFrames: true,
  // Frames written by script (about:blank) or from `srcdoc` belong to the page that made them: their tools are its own.
  matchAboutBlank: true,
  matchOriginAsFallback: true,
  world: 'MAIN',
  main() {
    setupMainWorldBridge();
  },
});
