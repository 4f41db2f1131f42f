import type { Settings } from '@/lib/settings';
import type { OptionsModel } from './options-model';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
}

/** A number the person types; out of range it is clamped, unreadable it is ignored. */
function NumberField({ label, value, min, max, step, onChange }: NumberFieldProps) {
  return (
    <label class="field">
      <span>{label}</span>
      <input
        type="number"
        value={value}
        min={min}
        max={max}
        step={step}
        onChange={(event) => {
          const typed = event.currentTarget.valueAsNumber;
          // An emptied or unreadable field shows the value still in use again, not a blank.
          if (!Number.isFinite(typed)) event.currentTarget.value = String(value);
          else onChange(Math.min(max, Math.max(min, step >= 1 ? Math.round(typed) : typed)));
        }}
      />
    </label>
  );
}

/** How the agent behaves: sampling, how long it may go on, when it asks, how much it reads. */
export function BehaviourSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  return (
    <section aria-labelledby="behaviour-heading">
      <h2 id="behaviour-heading">Behaviour</h2>
      <NumberField label="Temperature" value={settings.temperature} min={0} max={2} step={0.1} onChange={(temperature) => void model.update({ temperature })} />
      <NumberField label="Maximum steps per request" value={settings.maxSteps} min={1} max={30} step={1} onChange={(maxSteps) => void model.update({ maxSteps })} />
      <label class="field">
        <span>Ask before a tool runs</span>
        <select
          value={settings.confirmation}
          onChange={(event) => void model.update({ confirmation: event.currentTarget.value as Settings['confirmation'] })}
        >
          <option value="ask-unless-read-only">When it may change the page, unless you allowed the site</option>
          <option value="ask-always">Always, even for tools that only read</option>
        </select>
      </label>
      <NumberField
        label="Characters of a tool's output the model reads"
        value={settings.toolOutputLimit}
        min={200}
        max={100_000}
        step={100}
        onChange={(toolOutputLimit) => void model.update({ toolOutputLimit: Math.round(toolOutputLimit) })}
      />
      <NumberField
        label="Seconds a tool may take before the run stops"
        value={settings.toolTimeoutSeconds}
        min={1}
        max={600}
        step={1}
        onChange={(toolTimeoutSeconds) => void model.update({ toolTimeoutSeconds })}
      />
      <label class="field">
        <span>How tools are ranked for the model</span>
        <select
          value={settings.ranker}
          onChange={(event) => void model.update({ ranker: event.currentTarget.value as Settings['ranker'] })}
        >
          <option value="fielded-bm25">Fielded BM25 (best measured)</option>
          <option value="word-overlap">Word overlap (as documented for rankTools)</option>
        </select>
      </label>
    </section>
  );
}
