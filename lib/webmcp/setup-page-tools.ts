import { isExtensionGone, sendToBackground } from '../messaging/runtime-messaging';
import { createPageToolSources } from './create-page-tool-sources';
import { frameToolsPermission, readFrameFacts, topOriginOf } from './frame-tools-permission';
import { handlePageToolRequests } from './handle-page-tool-requests';
import { PageToolReader, type FrameReport } from './page-tool-reader';
import { displayName } from './sanitize-tool';
import { toolLimits } from './tool-limits';
import { watchPageLifecycle } from './watch-page-lifecycle';

/**
 * The content script of every frame: reads the frame's tools (the browser's API, then the bridge
 * to page-world polyfills, then `<form toolname>` where the browser does not read forms), reports
 * them to the background whenever they change, and runs tools on the background's request. A
 * frame the page did not allow tools (see frameToolsPermission) reports them as dropped, runs none.
 * Gives back how to stop reading the page (the extension went away).
 */
export function setupPageTools(): () => void {
  const frame = readFrameFacts();
  const permission = frameToolsPermission(frame);
  const { bridge, sources } = createPageToolSources();
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
  const stopAnswering = handlePageToolRequests({ frame, permission, reader, bridge, sources });
  watchPageLifecycle(reader, () => connected, disconnectIfGone);

  return stop;

  function stop(): void {
    if (!connected) return;
    connected = false;
    // Each part on its own: one that fails (the runtime's listener, gone with the extension) must
    // not keep the others running.
    for (const part of [() => reader.stop(), () => bridge.close(), stopAnswering]) {
      try {
        part();
      } catch {
        // Nothing is left to let go of there.
      }
    }
  }

  /**
   * After the extension is reloaded or updated, this old script can no longer reach it: it stops
   * trying, and stops reading the page at each of its changes for nobody.
   */
  function disconnectIfGone(error: unknown): void {
    if (isExtensionGone(error)) stop();
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
