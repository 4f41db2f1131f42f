import { describe, expect, it } from 'vitest';
import { TabQueues } from '@/lib/registry/tab-queues';

describe('the per-tab queues', () => {
  it('run nothing before they are ready, then a tab’s changes in arrival order, each after the last one ended', async () => {
    let ready = (): void => {};
    const queues = new TabQueues(new Promise<void>((resolve) => (ready = resolve)));
    const steps: string[] = [];
    let endFirst = (): void => {};
    const first = queues.serial(1, async () => {
      steps.push('first starts');
      await new Promise<void>((resolve) => (endFirst = resolve));
      steps.push('first ends');
    });
    const second = queues.serial(1, () => void steps.push('second'));
    await Promise.resolve();
    expect(steps).toEqual([]);
    ready();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(steps).toEqual(['first starts']);
    endFirst();
    await Promise.all([first, second]);
    expect(steps).toEqual(['first starts', 'first ends', 'second']);
  });

  it('let another tab go on while one tab waits', async () => {
    const queues = new TabQueues(Promise.resolve());
    void queues.serial(1, () => new Promise<void>(() => {}));
    await expect(queues.serial(2, () => 'other tab')).resolves.toBe('other tab');
  });

  it('hand a change’s failure to its caller and go on with the tab’s next change', async () => {
    const queues = new TabQueues(Promise.resolve());
    const failed = queues.serial(1, () => {
      throw new Error('no room');
    });
    const next = queues.serial(1, () => 'next');
    await expect(failed).rejects.toThrow('no room');
    await expect(next).resolves.toBe('next');
  });
});
