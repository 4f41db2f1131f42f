import type { ToolOutput } from '@webmcp-agents/chat';
import { formResultElsewhere, formResultMaybeBlocked } from '../webmcp/form-target';

/** How long after a call's answer the browser may still tell of the tab it opened. */
const lateMs = 1_000;

/**
 * Hears the tabs and windows a frame of a tab opens while one of its tools runs. A form that
 * Chrome's own WebMCP submits to a new tab is said to be maybe blocked as a pop-up: the page cannot
 * see the tab. Where the browser did open one from that frame meanwhile, the call says the form was
 * sent (`confirm`). The browser tells nothing of a tab its pop-up blocker stopped.
 */
export function hearTabsOpenedBy(tabId: number, frameId: number) {
  const created = browser.webNavigation?.onCreatedNavigationTarget;
  let opened = false;
  let heard: (() => void) | undefined;
  const listener = ({ sourceTabId, sourceFrameId }: { sourceTabId: number; sourceFrameId: number }) => {
    if (sourceTabId !== tabId || sourceFrameId !== frameId) return;
    opened = true;
    heard?.();
  };
  created?.addListener(listener);
  return {
    /** The output, saying the form was sent where the browser opened its tab; a Stop ends the wait. */
    async confirm(output: ToolOutput, signal?: AbortSignal): Promise<ToolOutput> {
      if (output.text !== formResultMaybeBlocked || !created) return output;
      if (!opened && !signal?.aborted) {
        await new Promise<void>((resolve) => {
          heard = resolve;
          setTimeout(resolve, lateMs);
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
      }
      return opened ? { ...output, text: formResultElsewhere } : output;
    },
    stop: () => created?.removeListener(listener),
  };
}
