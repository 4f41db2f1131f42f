import { expect, it } from 'vitest';
import type { EngineLoadProgress } from '../../lib/engines/engine';
import { createLoadProgressReporter } from '../../lib/engines/webllm/load-progress';

/** WebLLM 0.2.86's "Fetching param cache" report: whole seconds, rounded up, since the weights fetch began. */
function fetchReport(done: number, shards: number, megabytesPerShard: number, seconds: number) {
  return {
    progress: done / shards,
    timeElapsed: seconds,
    text: `Fetching param cache[${done}/${shards}]: ${done * megabytesPerShard}MB fetched. ${Math.floor((done * 100) / shards)}% completed, ${seconds} secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.`,
  };
}

it('a download resumed at half way says the time it really has left, not "a few seconds"', () => {
  const shown: EngineLoadProgress[] = [];
  const reporter = createLoadProgressReporter({ label: 'Qwen3 1.7B (q4f16)', fromCache: false, onProgress: (progress) => shown.push(progress) });
  reporter({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
  // The first attempt stored 15 of 30 shards: WebLLM counts them as fetched within its first second.
  for (let done = 1; done <= 15; done++) reporter(fetchReport(done, 30, 33, 1));
  expect(shown.at(-1)!.text).toBe('Downloading Qwen3 1.7B (q4f16): 495 of 990 MB.');
  // The other 15 download for real, 4 s each.
  for (let done = 16; done <= 30; done++) {
    reporter(fetchReport(done, 30, 33, 1 + (done - 15) * 4));
    const reallyLeft = (30 - done) * 4;
    const { etaSeconds } = shown.at(-1)!;
    if (done === 16) expect(etaSeconds).toBeUndefined();
    else if (done < 30) expect(Math.abs(etaSeconds! - reallyLeft)).toBeLessThanOrEqual(Math.max(2, reallyLeft * 0.1));
  }
  expect(shown.find((progress) => progress.text.includes('561 of 990 MB'))!.text).toBe('Downloading Qwen3 1.7B (q4f16): 561 of 990 MB, about 50 s left.');
});

it('a first download on a slow link shows the time left once two shards came in', () => {
  const shown: EngineLoadProgress[] = [];
  const reporter = createLoadProgressReporter({ label: 'Qwen3 0.6B (q4f16)', fromCache: false, onProgress: (progress) => shown.push(progress) });
  reporter({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
  reporter(fetchReport(1, 10, 36, 6));
  expect(shown.at(-1)!.etaSeconds).toBeUndefined();
  reporter(fetchReport(2, 10, 36, 12));
  expect(shown.at(-1)).toMatchObject({ etaSeconds: 48, text: 'Downloading Qwen3 0.6B (q4f16): 72 of 360 MB, about 50 s left.' });
});
