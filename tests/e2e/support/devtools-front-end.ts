import type { CDPSession, Page } from 'playwright-core';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/**
 * Chromium's own DevTools, opened for a tab (launch with `devtools: true`), driven over the
 * DevTools protocol: Playwright does not list DevTools windows or the extension frames inside
 * them, so this attaches to those targets by hand and evaluates script in them.
 *
 * Showing a panel and asking which page a DevTools window inspects use modules of the DevTools
 * front end (`ui/legacy`, `core/sdk`), which Chromium may rename: such a failure says so.
 */
export class DevToolsFrontEnd {
  private nextId = 1;
  private readonly replies = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();

  private constructor(
    private readonly cdp: CDPSession,
    private readonly targetId: string,
  ) {
    cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id !== undefined) this.replies.get(message.id)?.(message);
    });
  }

  /** The DevTools window that inspects `page`, once it is open (within `timeoutMs`). */
  static async of(page: Page, timeoutMs = 15_000): Promise<DevToolsFrontEnd> {
    const cdp = await page.context().newCDPSession(page);
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      for (const target of await targets(cdp)) {
        if (!target.url.startsWith('devtools://devtools/')) continue;
        const frontEnd = new DevToolsFrontEnd(cdp, target.targetId);
        const inspected = await frontEnd.evaluate(
          `import('./core/sdk/sdk.js').then((SDK) => SDK.TargetManager.TargetManager.instance().primaryPageTarget()?.inspectedURL() ?? '')`,
        );
        if (inspected === page.url()) return frontEnd;
      }
      await page.waitForTimeout(100);
    }
    throw new Error(`No DevTools window inspecting ${page.url()} opened within ${timeoutMs} ms.`);
  }

  /** Brings an extension's panel to the front, by the title it was created with. */
  async showExtensionPanel(extensionId: string, title: string): Promise<void> {
    const panelId = JSON.stringify(`chrome-extension://${extensionId}${title}`);
    await this.evaluate(`import('./ui/legacy/legacy.js').then((UI) => UI.InspectorView.InspectorView.instance().showPanel(${panelId}))`);
  }

  /** The text of the first extension frame inside DevTools whose URL contains `path`, once it has some. */
  async frameText(path: string, timeoutMs = 10_000): Promise<string> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const frame = (await targets(this.cdp)).find((target) => target.type === 'iframe' && target.url.includes(path));
      const text = frame ? await evaluateIn(this, frame.targetId, 'document.body.innerText') : '';
      if (typeof text === 'string' && text.trim() !== '') return text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`No frame of ${path} with text appeared inside DevTools within ${timeoutMs} ms.`);
  }

  evaluate(expression: string): Promise<unknown> {
    return evaluateIn(this, this.targetId, expression);
  }

  /** One protocol command to one target, through this window's session (Target.sendMessageToTarget). */
  async send(targetId: string, method: string, params: object): Promise<unknown> {
    const { sessionId } = await this.cdp.send('Target.attachToTarget', { targetId, flatten: false });
    const id = this.nextId++;
    const reply = new Promise<{ result?: unknown; error?: { message: string } }>((resolve) => this.replies.set(id, resolve));
    await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    const message = await reply;
    this.replies.delete(id);
    await this.cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    if (message.error) throw new Error(`${method} failed in DevTools: ${message.error.message}`);
    return message.result;
  }

  close(): Promise<void> {
    return this.cdp.detach();
  }
}

async function targets(cdp: CDPSession): Promise<TargetInfo[]> {
  return (await cdp.send('Target.getTargets')).targetInfos;
}

interface EvaluateResult {
  result?: { value?: unknown };
  exceptionDetails?: { exception?: { description?: string }; text?: string };
}

async function evaluateIn(frontEnd: DevToolsFrontEnd, targetId: string, expression: string): Promise<unknown> {
  const reply = (await frontEnd.send(targetId, 'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as EvaluateResult;
  if (reply.exceptionDetails) {
    const why = reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text ?? 'an exception';
    throw new Error(`Script inside DevTools failed (the DevTools front end may have changed): ${why}`);
  }
  return reply.result?.value;
}
