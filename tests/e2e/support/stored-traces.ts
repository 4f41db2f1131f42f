import type { Page } from 'playwright-core';

export interface StoredRun {
  id: string;
  tabId: number;
  origin: string;
  request: string;
  outcome?: string;
}

export interface StoredStep {
  runId: string;
  step: number;
  tools: Array<{ name: string; description: string }>;
  messages: Array<{ role: string; content: string }>;
  raw: string;
  calls: Array<{ name: string; arguments: Record<string, unknown>; approval?: { approved?: boolean }; result?: { text: string } }>;
  problems: Array<{ kind: string; message: string; name?: string }>;
}

/**
 * Every run and step the extension stored, read from its IndexedDB (`webmcp-agent-traces`) by one of
 * its own pages: what the model was shown and what it did, exactly as recorded.
 */
export function readStoredTraces(extensionPage: Page): Promise<{ runs: StoredRun[]; steps: StoredStep[] }> {
  return extensionPage.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open('webmcp-agent-traces');
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const all = <T,>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const request = database.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    try {
      return { runs: await all<StoredRun>('runs'), steps: await all<StoredStep>('steps') };
    } finally {
      database.close();
    }
  });
}

/**
 * The steps of the run started by `request`, in order, once the trace records how the run ended
 * (the panel may show the end a moment before it is written); fails after `timeoutMs`.
 */
export async function stepsOfRun(extensionPage: Page, request: string, timeoutMs = 5_000): Promise<{ run: StoredRun; steps: StoredStep[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { runs, steps } = await readStoredTraces(extensionPage);
    const run = runs.find((candidate) => candidate.request === request);
    if (run?.outcome) return { run, steps: steps.filter((step) => step.runId === run.id).sort((left, right) => left.step - right.step) };
    if (Date.now() > deadline) {
      throw new Error(`No finished run for "${request}" after ${timeoutMs} ms (runs: ${runs.map((candidate) => candidate.request).join(' | ')}).`);
    }
    await extensionPage.waitForTimeout(50);
  }
}
