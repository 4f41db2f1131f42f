import { describe, expect, it, vi } from 'vitest';
import { WaitingReports } from '@/lib/registry/waiting-reports';

const sender = (tabId: number, frameId: number) => ({ tabId, frameId, url: 'https://shop.example/', origin: 'https://shop.example' });
const report = (url: string) => ({ url, tools: [], dropped: [] });

describe('the reports waiting their tab’s turn', () => {
  it('keep one per frame: a newer report resolves the waiting one and takes its place in the queue', () => {
    const waiting = new WaitingReports();
    const firstResolved = vi.fn();
    const slot = waiting.hold(sender(7, 3), report('https://shop.example/a'), firstResolved, () => {});
    expect(slot).toBeDefined();
    expect(waiting.hold(sender(7, 3), report('https://shop.example/b'), () => {}, () => {})).toBeUndefined();
    expect(firstResolved).toHaveBeenCalledOnce();
    expect(slot?.report.url).toBe('https://shop.example/b');
    expect(waiting.hold(sender(7, 4), report('https://shop.example/c'), () => {}, () => {})).toBeDefined();
  });

  it('queue a frame’s next report anew once its turn came, or once the frame or its tab stopped waiting', () => {
    const waiting = new WaitingReports();
    const slot = waiting.hold(sender(7, 3), report('https://shop.example/a'), () => {}, () => {})!;
    waiting.turnCame(7, 3, slot);
    expect(waiting.hold(sender(7, 3), report('https://shop.example/b'), () => {}, () => {})).toBeDefined();
    waiting.stop(7, 3);
    expect(waiting.hold(sender(7, 3), report('https://shop.example/c'), () => {}, () => {})).toBeDefined();
    waiting.stop(7);
    expect(waiting.hold(sender(7, 3), report('https://shop.example/d'), () => {}, () => {})).toBeDefined();
  });

  it('leave the frame’s newer slot waiting when an older slot’s turn comes after it was let go', () => {
    const waiting = new WaitingReports();
    const old = waiting.hold(sender(7, 3), report('https://shop.example/a'), () => {}, () => {})!;
    waiting.stop(7, 3);
    waiting.hold(sender(7, 3), report('https://shop.example/b'), () => {}, () => {});
    waiting.turnCame(7, 3, old);
    expect(waiting.hold(sender(7, 3), report('https://shop.example/c'), () => {}, () => {})).toBeUndefined();
  });
});
