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
  main(ctx) {
    // A script whose extension went away stops reading the page: told by WXT when a newer copy
    // starts in the page, or by the first message that can no longer be sent.
    ctx.onInvalidated(setupPageTools());
  },
});
