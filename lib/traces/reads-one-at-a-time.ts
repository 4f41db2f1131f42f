/**
 * `read`, made to go one at a time: a call while a read goes on is answered by a read that begins
 * after it (the one going on may have begun before what the caller knows changed), and the calls
 * made meanwhile share that one read. For what a page shows of something that changes elsewhere,
 * asked again at each change.
 */
export function readsOneAtATime(read: () => Promise<void>): () => Promise<void> {
  let reading: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    if (!reading) {
      reading = read().finally(() => (reading = undefined));
      return reading;
    }
    next ??= reading.then(
      () => {
        next = undefined;
        return start();
      },
      () => {
        next = undefined;
        return start();
      },
    );
    return next;
  };
  return start;
}
