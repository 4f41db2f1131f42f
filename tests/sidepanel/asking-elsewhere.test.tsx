// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { mountPanel, type MountedPanel } from './mount-panel';
import { engineStatus, sessionState } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => {
  panel?.unmount();
  vi.restoreAllMocks();
  fakeBrowser.reset();
});

describe("the side panel, while a run in another tab waits for the person's answer", () => {
  it('says so, naming that tab, and goes there; the note goes once that run no longer waits', async () => {
    const other = await fakeBrowser.tabs.create({ active: false });
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    panel = await mountPanel({ askingElsewhere: { tabId: other.id!, name: 'Mug shop' } });
    expect(panel.find('asking-elsewhere')?.textContent).toBe('A request in “Mug shop” waits for your answer.Go to that tab');
    panel.find('go-to-asking-tab')!.click();
    await vi.waitFor(() => expect(update).toHaveBeenCalledWith(other.id, { active: true }));
    await panel.deliver({ type: 'snapshot', state: sessionState({}) });
    expect(panel.find('asking-elsewhere')).toBeNull();
  });

  it('counts the other tabs that wait too, and names none it may not', async () => {
    panel = await mountPanel({ askingElsewhere: { tabId: 7, name: 'Mug shop', more: 2 } });
    expect(panel.find('asking-elsewhere')?.textContent).toContain('Requests in “Mug shop” and 2 other tabs wait for your answer.');
    await panel.deliver({ type: 'snapshot', state: sessionState({ askingElsewhere: { tabId: 7 } }) });
    expect(panel.find('asking-elsewhere')?.textContent).toContain('A request in another tab waits for your answer.');
  });

  it('leaves it to the status line where this tab’s own request waits for that run', async () => {
    const waiting = engineStatus({ state: 'loading', progressText: 'Waiting for your answer in “Mug shop”, whose run must end first…', waitingForTab: 7 });
    panel = await mountPanel({ askingElsewhere: { tabId: 7, name: 'Mug shop' }, engine: waiting });
    expect(panel.find('asking-elsewhere')).toBeNull();
    expect(panel.find('status-line')?.textContent).toContain('Waiting for your answer in “Mug shop”');
  });
});
