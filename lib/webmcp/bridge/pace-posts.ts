// When the page-world bridge posts its listing again: its own file so the bridge's setup only
// wires, and the bridge keeps to the same share of the page's thread as the content script's reader.
import { waitAfterWork, type WorkDone } from '../wait-after-work';

/** Quiet time before a change is posted: a page registering several tools in a row posts once. */
const quietMs = 20;

/**
 * Gives back a function that has `post` run once the page's changes pause, no sooner than
 * `waitAfterWork` allows after the last post ended. One post at a time: a slow `getTools()` must
 * not post its older listing after a newer one, so a change heard meanwhile waits for it to end
 * (a bounded wait: postTools gives up on a listing that takes too long).
 */
export function pacePosts(post: () => Promise<void>): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let posting = false;
  let changedMeanwhile = false;
  let lastPost: WorkDone = { endedAt: 0, tookMs: 0 };
  const schedule = (): void => {
    if (posting) changedMeanwhile = true;
    if (posting || timer !== undefined) return;
    timer = setTimeout(() => void timedPost(), waitAfterWork(quietMs, lastPost, performance.now()));
  };
  const timedPost = async (): Promise<void> => {
    timer = undefined;
    posting = true;
    const startedAt = performance.now();
    // A post that failed must not stop the ones after it.
    await post().catch(() => undefined);
    const endedAt = performance.now();
    lastPost = { endedAt, tookMs: endedAt - startedAt };
    posting = false;
    if (changedMeanwhile) {
      changedMeanwhile = false;
      schedule();
    }
  };
  return schedule;
}
