import { render } from 'preact';
import { act } from 'preact/test-utils';
import { ChatApp } from '@/components/chat/chat-app';
import type { SessionState } from '@/lib/agent/session-state';
import type { DraftStorage } from '@/lib/agent/stored-drafts';
import { PanelModel } from '@/lib/sidepanel/panel-model';
import { createFakeBackground } from './fake-agent-port';
import { sessionState, tabId } from './session-fixtures';

/** The whole side panel, rendered into the test document and talking to a fake background. */
export async function mountPanel(initial: Partial<SessionState> = {}, options: { restsWhenIdle?: boolean; draftStorage?: DraftStorage; unanswered?: boolean } = {}) {
  const background = createFakeBackground();
  const wakeListeners = new Set<(tabId: number | undefined) => void>();
  const onWake = (listener: (tabId: number | undefined) => void) => {
    wakeListeners.add(listener);
    return () => void wakeListeners.delete(listener);
  };
  const model = new PanelModel({
    connect: background.connect,
    reconnectDelayMs: 100,
    ...(options.restsWhenIdle ? { onWake } : {}),
    draftStorage: options.draftStorage,
  });
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => {
    model.selectTab(tabId);
    render(<ChatApp model={model} />, container);
  });
  // `unanswered`: the background has not sent the tab's session yet.
  if (!options.unanswered) await act(() => background.port.deliver({ type: 'snapshot', state: sessionState(initial) }));

  return {
    model,
    background,
    container,
    /** The background sends a message; the panel has rendered it when this resolves. */
    deliver: (message: unknown) => act(() => background.port.deliver(message)),
    /** The background's word that a tab's session changed while no panel held a port for it. */
    wake: (wakeTabId?: number) => act(() => wakeListeners.forEach((listener) => listener(wakeTabId))),
    /** Lets the panel render what the last action changed. */
    flush: () => act(() => {}),
    find: (testId: string) => container.querySelector<HTMLElement>(`[data-testid="${testId}"]`),
    findAll: (testId: string) => [...container.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`)],
    /** What the panel posted, heartbeats aside. */
    posted: () => background.ports.flatMap((port) => port.sent).filter((message) => message.type !== 'heartbeat'),
    unmount: () => {
      render(null, container);
      container.remove();
      model[Symbol.dispose]();
    },
  };
}

export type MountedPanel = Awaited<ReturnType<typeof mountPanel>>;
