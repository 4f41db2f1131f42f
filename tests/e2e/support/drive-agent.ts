import type { Page, Worker } from 'playwright-core';

/** The extension APIs these helpers call inside the service worker. */
interface ChromeStorageGlobal {
  chrome: { storage: { local: { set(items: object): Promise<void> } } };
}

export interface ReplayPlan {
  replies: string[];
  chunkSize?: number;
  delayMs?: number;
  settings?: Record<string, unknown>;
}

/** Chooses the replay engine and hands it the model replies to play back, one per step. */
export async function useReplayEngine(worker: Worker, plan: ReplayPlan): Promise<void> {
  await worker.evaluate(async ({ replies, chunkSize, delayMs, settings }) => {
    const { chrome } = globalThis as unknown as ChromeStorageGlobal;
    await chrome.storage.local.set({
      settings: { engine: 'replay', ...settings },
      replayScript: { replies, chunkSize: chunkSize ?? 3, delayMs: delayMs ?? 0 },
    });
  }, plan);
}

/** Types a request into the side panel and sends it with Enter once Send is enabled, as a person would. */
export async function ask(panel: Page, request: string): Promise<void> {
  const input = panel.getByTestId('chat-input');
  await input.fill(request);
  await panel.locator('[data-testid=send]:enabled').waitFor({ timeout: 15_000 });
  await input.press('Enter');
}

/** A Qwen/Hermes-format tool call, as a model writes it. */
export function toolCall(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;
}
