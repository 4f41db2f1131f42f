import { useSignal } from '@preact/signals';
import { useId } from 'preact/hooks';
import { useStoredNumber } from './use-stored-number';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** What the number does, under the field and read with it. */
  hint?: string;
  onChange(value: number): void;
}

/**
 * A number the person types. Out of range it is clamped, unreadable it gives way to the value in
 * use, and a note says so: the field never changes without a word.
 */
export function NumberField({ label, value, min, max, step, hint, onChange }: NumberFieldProps) {
  const note = useSignal('');
  const noteId = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : '', note.value ? noteId : ''].filter((id) => id !== '').join(' ');
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
          aria-describedby={describedBy || undefined}
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
      {hint && (
        <p id={hintId} class="muted field-hint">
          {hint}
        </p>
      )}
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
