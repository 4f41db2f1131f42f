import { describe, expect, it, vi } from 'vitest';
import type { ActiveRun, TabRunHost } from '../../lib/agent/active-run';
import type { AgentWorld } from '../../lib/agent/agent-world';
import { waitForDecision } from '../../lib/agent/wait-for-decision';

/** A run's host whose toolbar records what it is told, and the run itself. */
function runAsking() {
  const asking: boolean[] = [];
  const world = { approvalWaitMs: 60_000, showAsking: (_tabId: number, waits: boolean) => void asking.push(waits) } as unknown as AgentWorld;
  const host: TabRunHost = { tabId: 1, world, toolRan: false, isActive: () => true, stop: vi.fn(), agentTurnedOff: vi.fn(), documentChanged: vi.fn() };
  const active = { controller: new AbortController(), approvals: new Map() } as unknown as ActiveRun;
  return { host, active, asking };
}

/** A question that stands, whatever changes. */
const stillStands = async () => undefined;

describe('waitForDecision', () => {
  it('asks through the toolbar until the person answers, then says nothing waits', async () => {
    const { host, active, asking } = runAsking();
    const decided = waitForDecision(host, active, '1.1', 'add_to_cart', stillStands);
    expect(asking).toEqual([true]);
    active.approvals.get('1.1')?.answer('allow-once');
    await expect(decided).resolves.toBe('allow-once');
    expect(asking).toEqual([true, false]);
    expect(active.approvals.size).toBe(0);
  });

  it('asks nobody for a run stopped while its question was being put: no "?" is left on the tab', async () => {
    const { host, active, asking } = runAsking();
    active.controller.abort();
    await expect(waitForDecision(host, active, '1.1', 'add_to_cart', stillStands)).resolves.toBe('deny');
    expect(asking).toEqual([]);
    expect(active.approvals.size).toBe(0);
  });

  it('ends without the person where the question no longer stands, looked at once as it is put and again at each change', async () => {
    const { host, active, asking } = runAsking();
    const looks: Array<() => void> = [];
    let settled: 'allowed' | undefined;
    const decided = waitForDecision(host, active, '1.1', 'add_to_cart', () => new Promise((resolve) => looks.push(() => resolve(settled))));
    // Looked at as it is put: it still stands.
    expect(looks).toHaveLength(1);
    looks[0]!();
    await Promise.resolve();
    expect(active.approvals.size).toBe(1);
    settled = 'allowed';
    active.approvals.get('1.1')?.lookAgain();
    looks[1]!();
    await expect(decided).resolves.toBe('allowed');
    expect(asking).toEqual([true, false]);
  });

  it('keeps the person\'s answer over a look that ends later, and the question over a look that fails', async () => {
    const { host, active } = runAsking();
    let finish: (settled: { withdrawn: string }) => void = () => {};
    const decided = waitForDecision(host, active, '1.1', 'add_to_cart', () => new Promise((resolve) => (finish = resolve)));
    active.approvals.get('1.1')?.answer('deny');
    finish({ withdrawn: 'gone' });
    await expect(decided).resolves.toBe('deny');

    const failing = runAsking();
    const waiting = waitForDecision(failing.host, failing.active, '1.2', 'add_to_cart', async () => {
      throw new Error('the settings could not be read');
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failing.active.approvals.has('1.2')).toBe(true);
    failing.active.approvals.get('1.2')?.answer('allow-once');
    await expect(waiting).resolves.toBe('allow-once');
  });

  it('says nothing more once the run stopped, though a look ends after: the toolbar of a next run in the tab is left alone', async () => {
    const { host, active, asking } = runAsking();
    let finish: (settled: 'allowed') => void = () => {};
    void waitForDecision(host, active, '1.1', 'add_to_cart', () => new Promise((resolve) => (finish = resolve)));
    // The page's tools change, and are being looked at, as the person presses Stop.
    active.approvals.get('1.1')?.lookAgain();
    active.controller.abort();
    expect(asking).toEqual([true, false]);
    finish('allowed');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asking).toEqual([true, false]);
  });
});
