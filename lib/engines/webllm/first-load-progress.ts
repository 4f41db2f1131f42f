import { formatSizeFromMegabytes } from '../../text/format-bytes';
import type { EngineLoadProgress } from '../engine';
import type { LoadRequest } from './webllm-runtime';

/**
 * What the panels say as a load starts, before WebLLM reports anything: whether the model comes
 * from this computer or is downloaded, and how large that download is, once. `leftMB`: what a
 * download that stopped part way has left to fetch.
 */
export function firstLoadProgress(request: LoadRequest, wasCached: boolean, leftMB = request.downloadMB): EngineLoadProgress {
  const note = request.note ? ` ${request.note}` : '';
  const resumed = leftMB !== undefined && request.downloadMB !== undefined && leftMB < request.downloadMB;
  const download = `${resumed ? 'the rest of ' : ''}${request.label}${sizeText(leftMB)}`;
  return {
    fraction: 0,
    text: wasCached ? `Loading ${request.label} from this computer.${note}` : `Downloading ${download}, once.${note}`,
    fromCache: wasCached,
  };
}

// As the status line and the options say it: "about 1.1 GB".
function sizeText(downloadMB: number | undefined): string {
  return downloadMB ? `, about ${formatSizeFromMegabytes(downloadMB)}` : '';
}
