/**
 * One queue of changes per tab, all waiting for `ready` first: a tab's changes apply one at a time,
 * in arrival order, and a busy tab never delays another. A queue is dropped once it runs dry.
 */
export class TabQueues {
  private readonly queues = new Map<number, Promise<void>>();

  constructor(private readonly ready: Promise<void>) {}

  /** Runs `change` after the tab's earlier changes, whether they worked or not. */
  serial<T>(tabId: number, change: () => Promise<T> | T): Promise<T> {
    const next = (this.queues.get(tabId) ?? this.ready).then(change);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(tabId, tail);
    void tail.then(() => {
      if (this.queues.get(tabId) === tail) this.queues.delete(tabId);
    });
    return next;
  }
}
