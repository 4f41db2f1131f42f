import { handleContentMessages, sendToBackground } from '../messaging/runtime-messaging';
import { createBridgeSource } from './bridge-source';
import { createDeclarativeSource } from './declarative-source';
import { frameToolsPermission, readFrameFacts, topOriginOf } from './frame-tools-permission';
import { browserReadsToolForms, createNativeSource } from './native-source';
import type { PageToolSource } from './page-tool-source';
import { PageToolReader, type FrameReport } from './page-tool-reader';
import { readPageResult } from './read-page-result';
import { abortToolCall, runToolCall, type RunningCalls } from './run-tool-call';
import { displayName } from './sanitize-tool';
import { toolLimits } from './tool-limits';

/**
 * The content script of every frame: reads the frame's tools (the browser's API, then the bridge
 * to page-world polyfills, then `<form toolname>` where the browser does not read forms), reports
 * them to the background whenever they change, and runs tools on the background's request. A
 * frame the page did not allow tools (see frameToolsPermission) reports them as dropped, runs none.
 */
export function setupPageTools(): void {
  const frame = readFrameFacts();
  const permission = frameToolsPermission(frame);
  const native = createNativeSource();
  const bridge = createBridgeSource();
  const sources: PageToolSource[] = [...(native ? [native] : []), bridge];
  // The page-world half gives the agent's submits `respondWith()`, which a page's own world needs.
  if (!browserReadsToolForms()) sources.push(createDeclarativeSource(() => bridge.armFormResponse()));
  let connected = true;
  const reader = new PageToolReader({
    sources,
    origin: frame.origin,
    onReport(frameTools) {
      // A page loaded ahead of time (prerendered) is not the tab's page yet: it reports once shown.
      if (!connected || isPrerendering()) return;
      const allowed = permission.allowed ? frameTools : refuseAll(frameTools, permission.reason);
      sendToBackground('tools-report', { url: location.href.slice(0, 8_192), topOrigin: topOriginOf(frame).slice(0, 2_048), ...allowed }).catch(disconnectIfGone);
    },
  });
  const running: RunningCalls = new Map();
  handleContentMessages({
    // Answered at once (the answer also tells the background this script is here); the report follows.
    'tools-request': ({ lookAgain }) => {
      // A polyfill may set its context up after the bridge last looked: asking again is cheap.
      bridge.refresh();
      // Walking the page for what no event announced is not: only when a panel opens on the tab.
      if (lookAgain) for (const source of sources) source.lookAgain?.();
      if (reader.hasReported()) void reader.reportNow();
      return null;
    },
    'tool-execute': (call) =>
      permission.allowed ? runToolCall(reader, call, running) : { status: 'error', error: { name: 'NotAllowedError', message: permission.reason } },
    'tool-abort': ({ callId }) => {
      abortToolCall(running, callId);
      return null;
    },
    // Only the top frame's page is asked, and only once a call of this tab loaded it.
    'page-result-request': () => (frame.isTop ? readPageResult() : null),
  });
  // The background forgets this document's tools when it goes; a restored one reports again.
  const onShown = (event: Event) => {
    if (!event.isTrusted) return;
    document.removeEventListener('prerenderingchange', onShown);
    void reader.reportNow();
  };
  document.addEventListener('prerenderingchange', onShown);
  // Only the browser's own events count (a page can dispatch look-alikes to flood the background),
  // and they are heard in the capture phase, before any page listener can stop them.
  window.addEventListener(
    'pagehide',
    (event) => {
      if (event.isTrusted && connected && reader.hasReported()) sendToBackground('frame-gone', {}).catch(disconnectIfGone);
    },
    { capture: true },
  );
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.isTrusted && event.persisted && reader.hasReported()) void reader.reportNow();
    },
    { capture: true },
  );

  /** After the extension is reloaded, this old script can no longer reach it: stop trying. */
  function disconnectIfGone(error: unknown): void {
    if (/context invalidated/i.test(String((error as Error | undefined)?.message))) connected = false;
  }
}

/** A frame without the permission offers nothing: each of its tools is listed as dropped, with why. */
function refuseAll(frameTools: FrameReport, reason: string): FrameReport {
  const dropped = [...frameTools.tools.map(({ name }) => ({ name: displayName(name), reason })), ...frameTools.dropped];
  return { tools: [], dropped: dropped.slice(0, toolLimits.toolsPerFrame + 100) };
}

function isPrerendering(): boolean {
  return (document as Document & { prerendering?: boolean }).prerendering === true;
}
