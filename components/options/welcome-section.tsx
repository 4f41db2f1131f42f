import { useEffect, useRef, useState } from 'preact/hooks';
import { modelLabel } from '@/lib/engines/model-catalog';
import type { Settings } from '@/lib/settings';
import { formatSizeFromMegabytes } from '@/lib/text/format-bytes';
import type { OptionsModel } from './options-model';
import { promptApiCannotRun } from './prompt-api-needs';
import { loadsEntry } from './webllm-download';
import { webLlmModelShown } from './webllm-model-shown';

interface WelcomeSectionProps {
  model: OptionsModel;
  settings: Settings;
  /** "Got it": the page goes on as the options alone. */
  onDone(): void;
}

/**
 * The first thing a new install shows (the options opened at `?welcome`): what runs the model,
 * where the tools come from, and how to open the side panel and ask. Each step points at what the
 * page below, or the browser, has for it.
 */
export function WelcomeSection({ model, settings, onDone }: WelcomeSectionProps) {
  const shortcut = usePanelShortcut();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by the install, the page is read from its welcome.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="welcome" aria-labelledby="welcome-heading" data-testid="welcome">
      <h2 id="welcome-heading" tabIndex={-1} ref={heading}>
        Welcome
      </h2>
      <p>Ask a web page, in your own words, to do what its tools can do: a small language model on this computer calls them for you.</p>
      <ol>
        <li>
          <strong>The model.</strong> {modelStep(model, settings)}
        </li>
        <li>
          <strong>A page with tools.</strong> Pages offer tools through WebMCP. Chrome's own is turned on at{' '}
          <code>chrome://flags/#enable-webmcp-testing</code> ("WebMCP for testing"); pages that bring a script of their own need
          nothing. The extension's icon counts a page's tools on its badge.
        </li>
        <li>
          <strong>Ask.</strong> Click the extension's icon (in the Extensions menu, the puzzle piece, until you pin it)
          {shortcut ? (
            <>
              {' '}
              or press <kbd>{shortcut}</kbd>
            </>
          ) : null}
          : the side panel opens beside the page. Type what you want done; a tool that may change the page waits for your Allow.
        </li>
      </ol>
      <button type="button" class="primary" onClick={onDone}>
        Got it
      </button>
    </section>
  );
}

/** What runs the model, as the engine below is set now. */
function modelStep(model: OptionsModel, settings: Settings): string {
  switch (settings.engine) {
    case 'webllm': {
      const status = model.webGpu.value;
      if (status?.available === false) {
        // Chrome's model is offered only where Chrome says it can run: else the server is the way.
        const chromeModel = ['downloadable', 'downloading', 'available'].includes(model.promptApi.value);
        const instead = chromeModel ? "Choose Chrome's built-in model or a model server you run instead." : 'Choose a model server you run (Local server) instead.';
        return `WebLLM, the engine chosen below, cannot run on this computer: ${status.message} ${instead}`;
      }
      const shown = webLlmModelShown(model, settings).model;
      if (!shown) return 'WebLLM, the engine chosen below, runs a small model on your graphics chip, and nothing leaves your computer.';
      const runs = `WebLLM, the engine chosen below, runs ${modelLabel(shown)} on your graphics chip`;
      const size = formatSizeFromMegabytes(shown.downloadMB);
      if (model.storedModels.value?.some((copy) => copy.modelId === shown.id && copy.complete)) return `${runs}; it is on this computer already.`;
      const elsewhere = model.webLlmLoadElsewhere.value;
      if (model.webLlmDownload.value?.running || (elsewhere && loadsEntry(elsewhere, shown, settings.model))) return `${runs}. It is downloading now (about ${size}, once): its progress is below.`;
      return `${runs}. It downloads about ${size} once: "Download now" below gets it ready, or your first request downloads it.`;
    }
    case 'prompt-api': {
      const cannotRun = promptApiCannotRun(model.promptApi.value);
      if (cannotRun) return `Chrome's built-in model, the engine chosen below, cannot run here: ${cannotRun.why} ${cannotRun.todo}`;
      return "Chrome's built-in model, chosen below, is downloaded and run by Chrome itself.";
    }
    case 'openai':
      // Said as it stands: a server that did not answer Connect answers nothing yet.
      return model.serverState.value === 'connected' || model.serverFailure.value === undefined
        ? 'A model server you run answers, at the address below.'
        : 'A model server you run answers, at the address below, once it is running: start it, then press Connect.';
    case 'replay':
      return 'The replay engine, chosen below, plays back recorded replies: choose another engine to talk to a model.';
  }
}

/** The keys that open the side panel (the toolbar icon's command), as Chrome names them; none where the person removed them. */
function usePanelShortcut(): string | undefined {
  const [shortcut, setShortcut] = useState<string>();
  useEffect(() => {
    browser.commands
      .getAll()
      .then((commands) => setShortcut(commands.find((command) => command.name === '_execute_action')?.shortcut || undefined))
      .catch(() => {
        // Without the commands API (a page opened on its own), the icon alone is named.
      });
  }, []);
  return shortcut;
}
