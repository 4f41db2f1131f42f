import { engineLabel } from '@/lib/engines/engine-labels';
import type { Settings } from '@/lib/settings';
import type { OptionsModel } from './options-model';
import type { PromptApiState } from './options-types';
import { promptApiCannotRun } from './prompt-api-needs';

interface EngineChoice {
  id: Settings['engine'];
  description: string;
}

// Every engine a person can pick, in the order shown, named by `engineLabel`; the replay
// engine is for tests and is shown only while it is the one chosen. A new engine id fails the type
// check here until it is given words.
const descriptions: Readonly<Record<Exclude<Settings['engine'], 'replay'>, string>> = {
  webllm: 'Runs a small model on your graphics chip. Nothing leaves your computer.',
  'prompt-api': 'Gemini Nano, which Chrome downloads and runs itself.',
  openai: 'A model server you run: Ollama, LM Studio or llama.cpp.',
};
const choices: readonly EngineChoice[] = Object.entries(descriptions).map(([id, description]) => ({ id: id as Settings['engine'], description }));

/** Why Chrome's model cannot be chosen now, where it cannot. */
function promptApiReason(state: PromptApiState): string | undefined {
  return state === 'checking' ? 'Checking whether Chrome has it…' : promptApiCannotRun(state)?.why;
}

/** Which engine runs the model; Chrome's model is offered only where Chrome says it can run. */
export function EngineSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  const promptApi = model.promptApi.value;
  const shown = settings.engine === 'replay' ? [...choices, replayChoice] : choices;
  return (
    <section aria-labelledby="engine-heading">
      <h2 id="engine-heading">Engine</h2>
      {/* Each radio is named by its engine alone, its description read after: not the whole label at each arrow key. */}
      <div role="radiogroup" aria-labelledby="engine-heading">
        {shown.map((choice) => {
          const chosen = settings.engine === choice.id;
          const reason = choice.id === 'prompt-api' ? promptApiReason(promptApi) : choice.id === 'webllm' ? webLlmReason(model, chosen) : undefined;
          // The saved choice stays selectable even where it cannot run: its reason says why.
          const disabled = reason !== undefined && !chosen;
          return (
            <label class={`choice${disabled ? ' disabled' : ''}`} key={choice.id}>
              <input
                type="radio"
                name="engine"
                data-place="engine"
                value={choice.id}
                checked={chosen}
                disabled={disabled}
                aria-labelledby={`engine-${choice.id}-name`}
                aria-describedby={`engine-${choice.id}-about`}
                onChange={() => void model.chooseEngine(choice.id)}
              />
              <span>
                <strong id={`engine-${choice.id}-name`}>{engineLabel({ engine: choice.id, openaiBaseUrl: settings.openaiBaseUrl })}</strong>
                {/* Only the radio and the name are dimmed (the stylesheet's .choice.disabled): the reason must stay readable. */}
                <span class="muted" id={`engine-${choice.id}-about`}>
                  {reason ?? choice.description}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </section>
  );
}

// WebLLM needs WebGPU: where the check found none, say so beside it. Unless it is the chosen
// engine, whose section below says what to do, say here what would make it a choice again.
function webLlmReason(model: OptionsModel, chosen: boolean): string | undefined {
  const status = model.webGpu.value;
  if (status?.available !== false) return undefined;
  return `It cannot run on this computer: ${status.message}${chosen ? '' : ` ${status.fix}.`}`;
}

const replayChoice: EngineChoice = { id: 'replay', description: 'Plays back recorded replies, for tests and trace replays.' };
