// When a frame's document is shown, hidden or restored, the background must hear of it: its own
// file so the setup only wires, and the rule that only the browser's own events count sits here.
import { sendToBackground } from '../messaging/runtime-messaging';
import { logFailedReading } from './log-failed-reading';
import type { PageToolReader } from './page-tool-reader';

/**
 * Reports again once a prerendered page is shown or a cached one restored, and tells the
 * background when the document goes. `isConnected` is read when the page goes.
 */
export function watchPageLifecycle(reader: PageToolReader, isConnected: () => boolean, disconnectIfGone: (error: unknown) => void): void {
  // The background forgets this document's tools when it goes; a restored one reports again.
  const onShown = (event: Event) => {
    if (!event.isTrusted) return;
    document.removeEventListener('prerenderingchange', onShown);
    reader.reportNow().catch(logFailedReading);
  };
  document.addEventListener('prerenderingchange', onShown);
  // Only the browser's own events count (a page can dispatch look-alikes to flood the background),
  // and they are heard in the capture phase, before any page listener can stop them.
  window.addEventListener(
    'pagehide',
    (event) => {
      if (event.isTrusted && isConnected() && reader.hasReported()) sendToBackground('frame-gone', {}).catch(disconnectIfGone);
    },
    { capture: true },
  );
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.isTrusted && event.persisted && reader.hasReported()) reader.reportNow().catch(logFailedReading);
    },
    { capture: true },
  );
}
