import { useRef } from 'preact/hooks';
import { BusyButton } from './busy-button';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import type { PromptApiState } from './options-types';
import { ProgressBar } from './progress-bar';
import { promptApiCannotRun } from './prompt-api-needs';
import { TrialView } from './trial-view';

const stateTexts: Record<Exclude<PromptApiState, 'absent' | 'unavailable'>, string> = {
  checking: 'Checking whether Chrome has its built-in model…',
  downloadable: 'Chrome can download its built-in model (a few GB, once).',
  downloading: 'Chrome is downloading its built-in model.',
  available: "Chrome's built-in model is on this computer and ready.",
};

/** Chrome's model: whether it can run here, and a button to download it (Chrome wants a click). */
export function PromptApiSection({ model }: { model: OptionsModel }) {
  const state = model.promptApi.value;
  const progress = model.promptApiProgress.value;
  const busy = model.promptApiBusy.value;
  const downloadButton = useRef<HTMLButtonElement>(null);
  // The button goes with the wait: its focus goes back to Download, not to the page's body.
  const cancel = () => {
    model.cancelPromptApiDownload();
    downloadButton.current?.focus();
  };
  const canDownload = state === 'downloadable' || state === 'downloading';
  return (
    <section aria-labelledby="prompt-api-heading">
      <h2 id="prompt-api-heading">Chrome's built-in model</h2>
      <p data-testid="prompt-api-state">{stateText(busy ? 'downloading' : state)}</p>
      {canDownload && (
        <div class="row">
          <BusyButton buttonRef={downloadButton} busy={busy} place="model" onClick={() => void model.downloadPromptApiModel()}>
            {busy ? 'Downloading…' : 'Download'}
          </BusyButton>
          {busy && (
            <button type="button" onClick={cancel} data-testid="prompt-api-cancel">
              Stop waiting
            </button>
          )}
        </div>
      )}
      {progress && <ProgressBar progress={progress} />}
      {model.promptApiCancelled.value && !busy && state !== 'available' && (
        <p class="muted" data-testid="prompt-api-cancelled">
          Stopped waiting for the download. Chrome fetches its model itself and may finish it anyway: open this page again later to see.
        </p>
      )}
      <FailureBox failure={model.promptApiFailure.value} />
      {state === 'available' && <TrialView model={model} />}
    </section>
  );
}

function stateText(state: PromptApiState): string {
  const cannotRun = promptApiCannotRun(state);
  return cannotRun ? `${cannotRun.why} ${cannotRun.todo}` : stateTexts[state as keyof typeof stateTexts];
}
