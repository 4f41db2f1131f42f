import type { ToolOutput } from '@webmcp-agents/chat';
import { formResultElsewhere, formResultMaybeBlocked } from '../webmcp/form-target';

/** How long after a call's answer the browser may still tell of the tab it opened. */
const lateMs = 1_000;

/**
 * Hears the tabs and windows a tab's page opens while one of its tools runs. A form that Chrome's own
 * WebMCP submits to a new tab is said to be maybe blocked as a pop-up: the page cannot see the tab.
 * Where the browser did open one from this tab, the call says the form was sent (`confirm`).
 */
export function hearTabsOpenedBy(tabId: number) {
  const created = browser.webNavigation?.onCreatedNavigationTarget;
  let opened = false;
  let heard: (() => void) | undefined;
  const listener = ({ sourceTabId }: { sourceTabId: number }) => {
    if (sourceTabId !== tabId) return;
    opened = true;
    heard?.();
  };
  created?.addListener(listener);
  return {
    /** The output, saying the form was sent where the browser opened its tab. */
    async confirm(output: ToolOutput): Promise<ToolOutput> {
      if (output.text !== formResultMaybeBlocked || !created) return output;
      if (!opened) {
        await new Promise<void>((resolve) => {
          heard = resolve;
          setTimeout(resolve, lateMs);
        });
      }
      return opened ? { ...output, text: formResultElsewhere } : output;
    },
    stop: () => created?.removeListener(listener),
  };
}
