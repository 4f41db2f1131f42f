import { describe, expect, it, vi } from 'vitest';
import type { ActiveRun, TabRunHost } from '../../lib/agent/active-run';
import type { AgentWorld } from '../../lib/agent/agent-world';
import { waitForDecision } from '../../lib/agent/wait-for-decision';

/** A run's host whose toolbar records what it is told, and the run itself. */
function runAsking() {
  const asking: boolean[] = [];
  const world = { approvalWaitMs: 60_000, showAsking: (_tabId: number, waits: boolean) => void asking.push(waits) } as unknown as AgentWorld;
  const host: TabRunHost = { tabId: 1, world, toolRan: false, isActive: () => true, stop: vi.fn(), documentChanged: vi.fn() };
  const active = { controller: new AbortController(), approvals: new Map() } as unknown as ActiveRun;
  return { host, active, asking };
}

describe('waitForDecision', () => {
  it('asks through the toolbar until the person answers, then says nothing waits', async () => {
    const { host, active, asking } = runAsking();
    const decided = waitForDecision(host, active, '1.1', 'add_to_cart');
    expect(asking).toEqual([true]);
    active.approvals.get('1.1')?.answer('allow-once');
    await expect(decided).resolves.toBe('allow-once');
    expect(asking).toEqual([true, false]);
    expect(active.approvals.size).toBe(0);
  });

  it('asks nobody for a run stopped while its question was being put: no "?" is left on the tab', async () => {
    const { host, active, asking } = runAsking();
    active.controller.abort();
    await expect(waitForDecision(host, active, '1.1', 'add_to_cart')).resolves.toBe('deny');
    expect(asking).toEqual([]);
    expect(active.approvals.size).toBe(0);
  });
});
