import type { CDPSession, Page } from 'playwright-core';

/** Megabytes (10^6 bytes) of JavaScript heap in use, after a garbage collection where asked. */
export type HeapMegabytes = number;

const megabyte = 1_000_000;

/** A page's (or extension page's) JavaScript heap in use, read with the DevTools Protocol. */
export async function pageHeap(page: Page, { collectGarbage = false } = {}): Promise<HeapMegabytes> {
  const session = await page.context().newCDPSession(page);
  try {
    if (collectGarbage) await session.send('HeapProfiler.collectGarbage');
    const usage = await session.send('Runtime.getHeapUsage');
    return usage.usedSize / megabyte;
  } finally {
    await session.detach();
  }
}

/**
 * The extension service worker's JavaScript heap in use. Playwright opens DevTools sessions on
 * pages only, so the worker is reached through the session of `viaPage` (`Target.sendMessageToTarget`).
 */
export async function workerHeap(viaPage: Page, { collectGarbage = false } = {}): Promise<HeapMegabytes> {
  const session = await viaPage.context().newCDPSession(viaPage);
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    const worker = targetInfos.find((target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'));
    if (!worker) throw new Error('The extension has no running service worker to measure.');
    const { sessionId } = await session.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
    try {
      if (collectGarbage) await sendToTarget(session, sessionId, 'HeapProfiler.collectGarbage');
      const usage = (await sendToTarget(session, sessionId, 'Runtime.getHeapUsage')) as { usedSize: number };
      return usage.usedSize / megabyte;
    } finally {
      await session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  } finally {
    await session.detach();
  }
}

let nextMessageId = 1;

/** One DevTools command to an attached target, answered through `Target.receivedMessageFromTarget`. */
function sendToTarget(session: CDPSession, sessionId: string, method: string, timeoutMs = 10_000): Promise<unknown> {
  const id = nextMessageId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new Error(`${method} got no answer within ${timeoutMs} ms.`))), timeoutMs);
    const onMessage = (event: { sessionId: string; message: string }) => {
      if (event.sessionId !== sessionId) return;
      const answer = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
      if (answer.id !== id) return;
      finish(() => (answer.error ? reject(new Error(`${method}: ${answer.error.message}`)) : resolve(answer.result)));
    };
    function finish(settle: () => void): void {
      clearTimeout(timer);
      session.off('Target.receivedMessageFromTarget', onMessage);
      settle();
    }
    session.on('Target.receivedMessageFromTarget', onMessage);
    session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch((error: unknown) =>
      finish(() => reject(error)),
    );
  });
}
