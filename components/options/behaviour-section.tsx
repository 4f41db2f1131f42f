import { useSignal } from '@preact/signals';
import { useId } from 'preact/hooks';
import type { Settings } from '@/lib/settings';
import type { OptionsModel } from './options-model';
import { useStoredNumber } from './use-stored-number';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
}

/**
 * A number the person types. Out of range it is clamped, unreadable it gives way to the value in
 * use, and a note says so: the field never changes without a word.
 */
function NumberField({ label, value, min, max, step, onChange }: NumberFieldProps) {
  const note = useSignal('');
  const noteId = useId();
  const stored = useStoredNumber(value);
  return (
    <>
      <label class="field">
        <span>{label}</span>
        <input
          ref={stored.input}
          type="number"
          min={min}
          max={max}
          step={step}
          aria-describedby={note.value ? noteId : undefined}
          onInput={stored.typed}
          onChange={(event) => {
            const typed = event.currentTarget.valueAsNumber;
            const used = Number.isFinite(typed) ? Math.min(max, Math.max(min, step >= 1 ? Math.round(typed) : typed)) : value;
            // An emptied or unreadable field shows the value still in use again, not a blank.
            event.currentTarget.value = String(used);
            note.value = used === typed ? '' : adjustedNote(typed, used, min, max);
            stored.committed();
            if (Number.isFinite(typed)) onChange(used);
          }}
          onBlur={stored.blurred}
        />
      </label>
      {/* Always mounted, so that a screen reader hears the note when its text comes. */}
      <p id={noteId} class="muted field-note" role="status">
        {note.value}
      </p>
    </>
  );
}

function adjustedNote(typed: number, used: number, min: number, max: number): string {
  if (!Number.isFinite(typed)) return `Not a number: still ${used}.`;
  if (typed < min || typed > max) return `${typed} is out of range (${min} to ${max}): set to ${used}.`;
  return `Whole numbers only: set to ${used}.`;
}

const confirmationHints: Record<Settings['confirmation'], string> = {
  'ask-unless-read-only':
    'A tool the page marks as only reading runs at once; any other waits for your Allow, unless you listed its site under Sites. One marked consequential always asks.',
  'ask-always': 'Every tool waits for your Allow, even one that only reads.',
};

/** How the agent behaves: sampling, how long it may go on, when it asks, how much it reads. */
export function BehaviourSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  return (
    <section aria-labelledby="behaviour-heading">
      <h2 id="behaviour-heading">Behaviour</h2>
      <NumberField label="Temperature" value={settings.temperature} min={0} max={2} step={0.1} onChange={(temperature) => void model.update({ temperature })} />
      <NumberField label="Maximum steps per request" value={settings.maxSteps} min={1} max={30} step={1} onChange={(maxSteps) => void model.update({ maxSteps })} />
      <label class="field">
        <span>Ask before a tool runs</span>
        {/* A closed list cannot wrap: short choices, and what the one picked means said under it. */}
        <select
          value={settings.confirmation}
          aria-describedby="confirmation-hint"
          onChange={(event) => void model.update({ confirmation: event.currentTarget.value as Settings['confirmation'] })}
        >
          <option value="ask-unless-read-only">When it may change the page</option>
          <option value="ask-always">Always</option>
        </select>
      </label>
      <p id="confirmation-hint" class="muted field-hint" data-testid="confirmation-hint">
        {confirmationHints[settings.confirmation]}
      </p>
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
          {/* The methods' own names (fielded BM25, rankTools' word overlap) mean nothing to most people. */}
          <option value="fielded-bm25">Best match (recommended)</option>
          <option value="word-overlap">Simple word match</option>
        </select>
      </label>
    </section>
  );
}
