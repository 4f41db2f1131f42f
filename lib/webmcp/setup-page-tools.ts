import { handleContentMessages, sendToBackground } from '../messaging/runtime-messaging';
import { createBridgeSource } from './bridge-source';
import { createDeclarativeSource } from './declarative-source';
import { browserReadsToolForms, createNativeSource } from './native-source';
import type { PageToolSource } from './page-tool-source';
import { PageToolReader } from './page-tool-reader';
import { abortToolCall, runToolCall, type RunningCalls } from './run-tool-call';

/**
 * The content script of every frame: reads the frame's tools (the browser's API, then the bridge
 * to page-world polyfills, then `<form toolname>` where the browser does not read forms), reports
 * them to the background whenever they change, and runs tools on the background's request.
 */
export function setupPageTools(): void {
  const bridge = createBridgeSource();
  const native = createNativeSource();
  const sources: PageToolSource[] = [...(native ? [native] : []), bridge];
  if (!browserReadsToolForms()) sources.push(createDeclarativeSource());
  let connected = true;
  const reader = new PageToolReader({
    sources,
    origin: location.origin,
    onReport(frameTools) {
      if (!connected) return;
      sendToBackground('tools-report', { url: location.href.slice(0, 8_192), ...frameTools }).catch(disconnectIfGone);
    },
  });
  const running: RunningCalls = new Map();
  handleContentMessages({
    'tools-request': async () => {
      bridge.refresh();
      if (reader.hasReported()) await reader.reportNow();
      return null;
    },
    'tool-execute': (call) => runToolCall(reader, call, running),
    'tool-abort': ({ callId }) => {
      abortToolCall(running, callId);
      return null;
    },
  });
  // The background forgets this document's tools when it goes; a restored one reports again.
  window.addEventListener('pagehide', () => {
    if (connected && reader.hasReported()) sendToBackground('frame-gone', {}).catch(disconnectIfGone);
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && reader.hasReported()) void reader.reportNow();
  });

  /** After the extension is reloaded, this old script can no longer reach it: stop trying. */
  function disconnectIfGone(error: unknown): void {
    if (/context invalidated/i.test(String((error as Error | undefined)?.message))) connected = false;
  }
}
