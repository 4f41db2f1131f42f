import { formatSizeFromMegabytes } from '../../text/format-bytes';
import type { EngineLoadProgress } from '../engine';
import type { LoadRequest } from './webllm-runtime';

/**
 * What the panels say as a load starts, before WebLLM reports anything: whether the model comes
 * from this computer or is downloaded, and how large that download is, once.
 */
export function firstLoadProgress(request: LoadRequest, wasCached: boolean): EngineLoadProgress {
  const note = request.note ? ` ${request.note}` : '';
  return {
    fraction: 0,
    text: wasCached ? `Loading ${request.label} from this computer.${note}` : `Downloading ${request.label}${sizeText(request.downloadMB)}, once.${note}`,
    fromCache: wasCached,
  };
}

// As the status line and the options say it: "about 1.1 GB".
function sizeText(downloadMB: number | undefined): string {
  return downloadMB ? `, about ${formatSizeFromMegabytes(downloadMB)}` : '';
}
