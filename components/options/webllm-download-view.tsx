import { useEffect } from 'preact/hooks';
import { modelLabel, type CatalogModel } from '@/lib/engines/model-catalog';
import { formatSizeFromMegabytes } from '@/lib/text/format-bytes';
import { figure, plural } from '@/lib/text/plural';
import { BusyButton } from './busy-button';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import { ProgressBar } from './progress-bar';
import { useCancelButton } from './use-cancel-button';
import { loadsEntry, progressOf } from './webllm-download';

interface WebLlmDownloadViewProps {
  model: OptionsModel;
  /** The model that loads, as the engine picks it for this computer. */
  entry: CatalogModel;
  /** The model the settings name ('' where the extension picks the default for this computer). */
  picked: string;
  keptMinutes: number;
}

/**
 * "Download now" (or "Load now", where the model is stored): the model fetched and loaded ahead of
 * the first request, by the service worker that answers requests, with its progress and its end.
 */
export function WebLlmDownloadView({ model, entry, picked, keptMinutes }: WebLlmDownloadViewProps) {
  const download = model.webLlmDownload.value;
  const running = download?.running === true;
  const copy = model.storedModels.value?.find((stored) => stored.modelId === entry.id);
  const stored = copy?.complete === true;
  // A download stopped part way: what is here already need not come again.
  const partMB = copy && !copy.complete ? copy.bytes / (1024 * 1024) : 0;
  const label = modelLabel(entry);
  const { startButton, cancelButton } = useCancelButton(running, model.cancelWebLlmDownload);
  useEffect(() => model.followWebLlmLoads(), [model]);
  // A load of this model another page began: shown as it goes, to be neither started again nor stopped from here.
  const other = model.webLlmLoadElsewhere.value;
  const elsewhere = other && loadsEntry(other, entry, picked) ? progressOf(other) : undefined;
  // Such a load that ended with this model loaded (and stored, unless it was deleted below since).
  const loadedModel = model.webLlmLoadElsewhereLoaded.value;
  const loadedElsewhere = stored && loadedModel !== undefined && loadsEntry({ engineId: 'webllm', model: loadedModel }, entry, picked);
  const staysLoaded =
    keptMinutes > 0 ? `it then stays loaded for ${plural(keptMinutes, 'minute')}` : 'it then stays loaded until the extension has been idle for 30 seconds';
  return (
    <div class="trial" data-testid="webllm-download">
      <div class="row">
        <BusyButton
          buttonRef={startButton}
          busy={running || elsewhere !== undefined}
          describedBy={elsewhere ? 'webllm-load-elsewhere' : undefined}
          onClick={model.downloadWebLlmModel}
        >
          {stored ? (running || elsewhere ? 'Loading…' : 'Load now') : running || elsewhere ? 'Downloading…' : 'Download now'}
        </BusyButton>
        {running && (
          <button type="button" aria-label={stored ? 'Cancel the load' : 'Cancel the download'} aria-keyshortcuts="Escape" {...cancelButton}>
            Cancel
          </button>
        )}
      </div>
      {elsewhere?.progress && <ProgressBar progress={elsewhere.progress} />}
      {!running && !elsewhere && !download && (
        <p class="muted" data-testid="webllm-download-note">
          {stored
            ? `Loads ${label} into the GPU now, to see that it runs here; ${staysLoaded}, so that a request starts at once.`
            : `Downloads ${label} now (about ${formatSizeFromMegabytes(entry.downloadMB)}, once${partMB >= 1 ? `; ${formatSizeFromMegabytes(partMB)} of it is here already` : ''}), rather than with your first request, and loads it into the GPU.`}
        </p>
      )}
      {running && download.progress && <ProgressBar progress={download.progress} />}
      {running && <p class="muted">{stored ? 'Closing this page stops it.' : 'Closing this page stops it; anything downloaded so far stays on this computer.'}</p>}
      {/* Mounted from the start, so that a screen reader hears each of these as it comes. */}
      <div aria-live="polite" data-testid="webllm-download-result">
        {running && !download.stalled && <p class="visually-hidden">{stored ? `Loading ${label}…` : `Downloading ${label}…`}</p>}
        {running && download.stalled && <p class="muted">Nothing has come for a minute: check your connection, or press Cancel.</p>}
        {elsewhere && (
          <p class="muted" id="webllm-load-elsewhere" data-testid="webllm-load-elsewhere">
            {`A side panel or another tab is ${stored ? 'loading' : 'downloading'} ${label} now; closing this page does not stop it.`}
          </p>
        )}
        {elsewhere?.stalled && <p class="muted">Nothing has come for a minute: check your connection.</p>}
        {!running && !elsewhere && loadedElsewhere && <p>{`${label} is on this computer and loaded: ${staysLoaded}, so that a request starts at once.`}</p>}
        {/* Only while it is still so: the model may have been deleted below since. */}
        {download?.loaded !== undefined && stored && <p>{`${label} is on this computer and loaded: ${staysLoaded}, so that a request starts at once.`}</p>}
        {download?.cancelled && <p class="muted">{stored ? 'Cancelled.' : 'Cancelled. Anything downloaded so far stays on this computer.'}</p>}
        {(download?.failures ?? 0) > 1 && !running && <p class="muted">{`Failed ${figure(download!.failures!)} times in a row.`}</p>}
      </div>
      {/* Drawn afresh at each failure, so that one like the last is said, and seen, again. */}
      <FailureBox key={download?.failures} failure={download?.failure} />
      {/* Another page's load of this model failed: that page says so, and this one, where it offered no Download now meanwhile. */}
      {!running && !download?.failure && <FailureBox failure={model.webLlmLoadElsewhereFailed.value} />}
    </div>
  );
}
