import { useRef, useState } from 'preact/hooks';
import { welcomeQuery } from '@/lib/service-worker/welcome-on-install';
import type { OptionsModel } from './options-model';
import { BehaviourSection } from './behaviour-section';
import { EngineSection } from './engine-section';
import { ModelStorageSection } from './model-storage-section';
import { PromptApiSection } from './prompt-api-section';
import { ServerSection } from './server-section';
import { SitesSection } from './sites-section';
import { usePlaceInAddress } from './use-place-in-address';
import { WebLlmSection } from './webllm-section';
import { WelcomeSection } from './welcome-section';

/** The extension's options: which engine and model, how the agent behaves, where it is off. */
export function OptionsPage({ model }: { model: OptionsModel }) {
  const settings = model.settings.value;
  // WebLLM's fields are not there to go to until the check of WebGPU says whether it can run here.
  usePlaceInAddress(settings !== undefined && (settings.engine !== 'webllm' || model.webGpu.value !== undefined));
  const [welcome, showWelcome, endWelcome] = useWelcome();
  const title = useRef<HTMLHeadingElement>(null);
  if (!settings) return <p class="loading">Loading the settings…</p>;
  return (
    <main class="options">
      <header class="options-header">
        <h1 tabIndex={-1} ref={title}>
          WebMCP Local Agent
        </h1>
        <nav class="options-links" aria-label="More">
          {!welcome && (
            <a href={`?${welcomeQuery}`} onClick={showWelcome} data-testid="show-welcome">
              Getting started
            </a>
          )}
          <a href="traces.html">Traces of agent runs</a>
        </nav>
      </header>
      {welcome && (
        <WelcomeSection
          model={model}
          settings={settings}
          onDone={() => {
            endWelcome();
            // The section and its button go: the focus stays at the top of the page, not on its body.
            title.current?.focus();
          }}
        />
      )}
      <p class="muted options-note" data-testid="when-changes-count">
        Each change is saved as you make it, and counts from the next request: one going on ends with the engine, server, model and limits it began with. When to ask before a
        tool runs, the allowed sites and the sites where the agent is off count at once, even mid-request.
      </p>
      <EngineSection model={model} settings={settings} />
      {settings.engine === 'webllm' && <WebLlmSection model={model} settings={settings} />}
      {settings.engine === 'prompt-api' && <PromptApiSection model={model} />}
      {settings.engine === 'openai' && <ServerSection model={model} settings={settings} />}
      <BehaviourSection model={model} settings={settings} />
      <SitesSection model={model} settings={settings} />
      <ModelStorageSection model={model} />
      {/* Last: what a newcomer comes for first is the engine. */}
      <p class="muted options-note" data-testid="traces-note">
        Each request is kept on this computer as a trace, with the prompts and the page's answers (not in a private window). The traces
        page, linked at the top, says how many are kept, and can stop keeping them.
      </p>
      {/* Last, and held at the foot of the window: seen wherever the change was made. */}
      {/* Keyed by the attempt: a screen reader says an alert as it appears, a second failure too. */}
      {model.saveFailure.value && (
        <p key={model.saveFailure.value.attempt} class="notice tone-error save-failure" role="alert" data-testid="save-failure">
          {model.saveFailure.value.message}
        </p>
      )}
    </main>
  );
}

/**
 * Whether the page shows its welcome: opened by the install at `?welcome`, or again by "Getting
 * started", until "Got it", which takes it out of the address too (a reload then shows the options
 * alone).
 */
function useWelcome(): [shown: boolean, show: (event: MouseEvent) => void, end: () => void] {
  const [shown, setShown] = useState(() => new URLSearchParams(location.search).has(welcomeQuery));
  const show = (event: MouseEvent) => {
    // A click meant for another tab or window goes as a link's does.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    history.replaceState(null, '', `${location.pathname}?${welcomeQuery}${location.hash}`);
    setShown(true);
  };
  const end = () => {
    history.replaceState(null, '', location.pathname + location.hash);
    setShown(false);
  };
  return [shown, show, end];
}
