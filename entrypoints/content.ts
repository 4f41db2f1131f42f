import { setupPageTools } from '../lib/webmcp/setup-page-tools';

// Every frame, from the start: tools registered while the page loads must not be missed.
export default defineContentScript({
  matches: ['<all_urls>'],
  runAt: 'document_start',
  allFrames: true,
  // Frames written by script (about:blank) or from `srcdoc` belong to the page that made them: their tools are its own.
  matchAboutBlank: true,
  matchOriginAsFallback: true,
  // Pages hear nothing from the extension unless they offer WebMCP tools.
  noScriptStartedPostMessage: true,
  main() {
    // Its stop is not tied to WXT's word of a newer copy of this script: a page can send that word
    // itself, and the extension never injects a second copy. A send that fails says it instead.
    setupPageTools();
  },
});
