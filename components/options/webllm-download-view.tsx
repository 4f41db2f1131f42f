import { useRef } from 'preact/hooks';
import { modelLabel, type CatalogModel } from '@/lib/engines/model-catalog';
import { formatSizeFromMegabytes } from '@/lib/text/format-bytes';
import { plural } from '@/lib/text/plural';
import { BusyButton } from './busy-button';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import { ProgressBar } from './progress-bar';
import { useEscapeCancels } from './use-escape-cancels';

interface WebLlmDownloadViewProps {
  model: OptionsModel;
  /** The model that loads, as the engine picks it for this computer. */
  entry: CatalogModel;
  keptMinutes: number;
}

/**
 * "Download now" (or "Load now", where the model is stored): the model fetched and loaded ahead of
 * the first request, by the service worker that answers requests, with its progress and its end.
 */
export function WebLlmDownloadView({ model, entry, keptMinutes }: WebLlmDownloadViewProps) {
  const download = model.webLlmDownload.value;
  const running = download?.running === true;
  const stored = model.storedModels.value?.some((stored) => stored.modelId === entry.id && stored.complete) === true;
  const label = modelLabel(entry);
  const startButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    const focusOnCancel = document.activeElement === cancelButton.current;
    model.cancelWebLlmDownload();
    if (focusOnCancel) startButton.current?.focus();
  };
  useEscapeCancels(running, cancel);
  const staysLoaded = keptMinutes > 0 ? `it then stays loaded for ${plural(keptMinutes, 'minute')}` : 'it then stays loaded while the extension is busy';
  return (
    <div class="trial" data-testid="webllm-download">
      <div class="row">
        <BusyButton buttonRef={startButton} busy={running} onClick={model.downloadWebLlmModel}>
          {stored ? (running ? 'Loading…' : 'Load now') : running ? 'Downloading…' : 'Download now'}
        </BusyButton>
        {running && (
          <button ref={cancelButton} type="button" aria-label={stored ? 'Cancel the load' : 'Cancel the download'} aria-keyshortcuts="Escape" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
      {!running && !download && (
        <p class="muted" data-testid="webllm-download-note">
          {stored
            ? `Loads ${label} into the GPU now, to see that it runs here; ${staysLoaded}, so that a request starts at once.`
            : `Downloads ${label} now (about ${formatSizeFromMegabytes(entry.downloadMB)}, once), rather than with your first request, and loads it into the GPU.`}
        </p>
      )}
      {running && download.progress && <ProgressBar progress={download.progress} />}
      {running && (
        <p class="muted">
          {download.stalled
            ? 'Nothing has come for a minute: check your connection, or press Cancel.'
            : 'Closing this page stops it; what has downloaded stays on this computer.'}
        </p>
      )}
      <div aria-live="polite" data-testid="webllm-download-result">
        {download?.loaded !== undefined && <p>{`${label} is on this computer and loaded: a request starts at once.`}</p>}
        {download?.cancelled && <p class="muted">Cancelled. What has downloaded stays on this computer.</p>}
      </div>
      <FailureBox failure={download?.failure} />
    </div>
  );
}
