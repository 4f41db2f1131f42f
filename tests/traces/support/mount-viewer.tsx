import { render } from 'preact';
import { act } from 'preact/test-utils';
import { TraceViewerApp } from '@/components/traces/trace-viewer-app';
import { createTraceClient } from '@/lib/traces/trace-client';
import { loadTraceSettings, saveTraceSettings, watchTraceSettings, type TraceSettings } from '@/lib/traces/trace-settings';
import type { TraceServiceBackground } from '@/lib/traces/trace-service';
import type { TraceStore } from '@/lib/traces/trace-store';
import { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import type { ShopPage } from './shop-page';
import { createTestService } from './test-service';

export interface MountOptions {
  /** The largest file imported and exported; the viewer's own 50 MB by default. */
  maxFileBytes?: number;
  /** More of the background's world: the person's consent settings, say. */
  service?: Partial<TraceServiceBackground>;
  /** Hears every change the viewer saves to the retention settings. */
  onSaveSettings?: (change: Partial<TraceSettings>) => void;
  /** The run the page's address opened (`traces.html?run=…`). */
  initialRunId?: string;
}

/** The whole viewer page, rendered into the test document, over a real store and trace service. */
export async function mountViewer(store: TraceStore, pages: Map<number, ShopPage> = new Map(), followIntervalMs?: number, options: MountOptions = {}) {
  const { service, openReplayPort } = createTestService(store, pages, options.service);
  const downloads: Array<{ fileName: string; text: string }> = [];
  const model = new TraceViewerModel({
    client: createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort }),
    download: (fileName, text) => downloads.push({ fileName, text }),
    settings: {
      load: loadTraceSettings,
      save: (change) => {
        options.onSaveSettings?.(change);
        return saveTraceSettings(change);
      },
      watch: watchTraceSettings,
    },
    followIntervalMs,
    maxFileBytes: options.maxFileBytes,
  });
  const container = document.createElement('div');
  document.body.append(container);
  await act(async () => {
    render(<TraceViewerApp model={model} {...(options.initialRunId ? { initialRunId: options.initialRunId } : {})} />, container);
    if (options.initialRunId) void model.open(options.initialRunId);
    await model.load();
  });
  const find = (testId: string, within: ParentNode = container) => within.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const findAll = (testId: string, within: ParentNode = container) => [...within.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`)];
  return {
    model,
    container,
    downloads,
    find,
    findAll,
    /** Runs an action and lets the page render what it changed, however many tasks that takes. */
    act: async (action: () => unknown = () => {}) => {
      await act(async () => {
        await action();
      });
      await settle();
    },
    /** Opens every folded step, as a person clicking each one (its body is built when opened). */
    openSteps: async () => {
      await act(() => {
        for (const step of container.querySelectorAll<HTMLDetailsElement>('[data-testid="step"]')) {
          step.open = true;
          step.dispatchEvent(new Event('toggle'));
        }
      });
      await settle();
    },
    click: async (element: Element | null) => {
      if (!element) throw new Error('Nothing to click.');
      await act(() => (element as HTMLElement).click());
      await settle();
    },
    /**
     * Waits (a task at a time) until `check` holds; the store and the replay port answer in tasks.
     * Up to 10 s: deleting a hundred runs from the in-memory database takes over a second on a busy machine.
     */
    until: async (check: () => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!check() && Date.now() < deadline) await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
      if (!check()) throw new Error(`The viewer never showed ${what}.`);
    },
    unmount: () => {
      render(null, container);
      container.remove();
      model[Symbol.dispose]();
    },
  };
}

function settle() {
  return act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

export type MountedViewer = Awaited<ReturnType<typeof mountViewer>>;
