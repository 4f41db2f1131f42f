import type { ModelUsage } from '@webmcp-agents/local-agent';
import { usageFigure } from '../engines/usage-figure';
import type { EngineHostParts } from './engine-host-parts';

/**
 * What a tab's run reports of its replies once they end: a failure of the engine, or its speed.
 * Each is that tab's news alone (see `statusForTab`), and its panel hears it at once.
 */
export function createTabReports({ shared, news }: Pick<EngineHostParts, 'shared' | 'news'>) {
  return {
    /** The engine failed in the middle of `tabId`'s reply: that tab's panel says so until the engine answers again. */
    reportError(tabId: number, message: string, hint?: string, code?: string): void {
      const beforeFirstWord = !news.answering.has(tabId);
      const beforeReply = !news.replyBegun.has(tabId);
      news.replyFailures.set(tabId, {
        error: message,
        ...(hint ? { hint } : {}),
        ...(code ? { errorCode: code } : {}),
        ...(beforeFirstWord ? { beforeFirstWord } : {}),
        ...(beforeReply ? { beforeReply } : {}),
      });
      shared.publishNow();
    },
    reportUsage(tabId: number, usage: ModelUsage): void {
      // Any engine's figure, checked here too: a status that fails the panel's schema blanks every panel.
      const speed = usageFigure(usage.decodeTokensPerSecond);
      if (speed === undefined) return;
      news.speeds.set(tabId, Math.round(speed * 10) / 10);
      shared.publishNow();
    },
  };
}
