import type { InitProgressReport } from '@mlc-ai/web-llm';
import { megabyteCount } from '../../text/format-bytes';
import type { EngineLoadProgress } from '../engine';

export interface LoadProgressOptions {
  /** "Qwen3 1.7B (q4f16)". */
  label: string;
  /** The weights are already on this computer: nothing to download. */
  fromCache: boolean;
  onProgress(progress: EngineLoadProgress): void;
}

export interface LoadProgressReporter {
  (report: InitProgressReport): void;
  /** How far the download came, for the message when it fails. */
  readonly lastDownload: { loadedBytes: number; totalBytes: number; fraction: number } | undefined;
}

const megabyte = 1024 * 1024;

/**
 * Turns WebLLM's progress reports (one fraction per phase, details only in its English text) into
 * one bar for the whole load: download, then copying to the GPU, then compiling shaders.
 */
export function createLoadProgressReporter(options: LoadProgressOptions): LoadProgressReporter {
  const { label, fromCache, onProgress } = options;
  // Where each phase sits on the bar: a download dominates a first load.
  const spans = fromCache
    ? { download: [0, 0], copy: [0, 0.8], shaders: [0.8, 1] }
    : { download: [0, 0.85], copy: [0.85, 0.95], shaders: [0.95, 1] };
  let shown = 0;
  let lastDownload: LoadProgressReporter['lastDownload'];
  // The time left comes from what this load really downloads. A resumed download has WebLLM count
  // the shards already stored as fetched at once, within its first (rounded-up) second: the rate
  // is measured from the last report of that second, and only once two shards came after it.
  let since = { seconds: 0, fraction: 0 };
  let shardsSince = 0;

  const report = (progress: EngineLoadProgress) => {
    shown = Math.max(shown, Math.min(1, progress.fraction ?? shown));
    onProgress({ ...progress, fraction: shown, fromCache });
  };

  const reporter = (event: InitProgressReport) => {
    const fraction = Number.isFinite(event.progress) ? Math.min(1, Math.max(0, event.progress)) : 0;
    const text = String(event.text ?? '');
    if (text.startsWith('Fetching param cache')) {
      const loadedBytes = (Number(/(\d+)MB fetched/.exec(text)?.[1]) || 0) * megabyte;
      const totalBytes = fraction > 0 ? Math.round(loadedBytes / fraction) : 0;
      lastDownload = { loadedBytes, totalBytes, fraction };
      const seconds = Number.isFinite(event.timeElapsed) ? event.timeElapsed : 0;
      if (seconds <= 1) {
        since = { seconds, fraction };
        shardsSince = 0;
      } else {
        shardsSince += 1;
      }
      const downloaded = fraction - since.fraction;
      const etaSeconds = shardsSince >= 2 && downloaded > 0 ? Math.round(((seconds - since.seconds) * (1 - fraction)) / downloaded) : undefined;
      report({
        fraction: within(spans.download, fraction),
        text: downloadText(label, loadedBytes, totalBytes, etaSeconds),
        loadedBytes,
        totalBytes,
        ...(etaSeconds === undefined ? {} : { etaSeconds }),
      });
    } else if (text.startsWith('Loading model from cache')) {
      report({ fraction: within(spans.copy, fraction), text: `Loading ${label} into the GPU: ${percent(fraction)}.` });
    } else if (text.startsWith('Loading GPU shader modules')) {
      report({ fraction: within(spans.shaders, fraction), text: `Preparing the GPU for ${label}: ${percent(fraction)}.` });
    } else if (text.startsWith('Finish loading')) {
      report({ fraction: 1, text: `${label} is ready.` });
    } else {
      report({ fraction: shown, text: fromCache ? `Loading ${label} from this computer…` : `Starting the download of ${label}…` });
    }
  };
  return Object.defineProperty(reporter, 'lastDownload', { get: () => lastDownload }) as LoadProgressReporter;
}

function within([start, end]: number[], fraction: number): number {
  return start! + (end! - start!) * fraction;
}

function percent(fraction: number): string {
  return `${Math.floor(fraction * 100)}%`;
}

function downloadText(label: string, loadedBytes: number, totalBytes: number, etaSeconds?: number): string {
  const amount = totalBytes > 0 ? `${megabyteCount(loadedBytes)} of ${megabyteCount(totalBytes)} MB` : `${megabyteCount(loadedBytes)} MB`;
  const left = etaSeconds === undefined ? '' : `, ${formatTimeLeft(etaSeconds)}`;
  return `Downloading ${label}: ${amount}${left}.`;
}

/** "about 40 s left", "about 3 min left": rounded, since download speed wanders. */
function formatTimeLeft(seconds: number): string {
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}
