import { useSignal } from '@preact/signals';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { OptionsPlace } from '@/lib/sidepanel/options-place';
import { useStoredNumber } from './use-stored-number';
import { figure } from '@/lib/text/plural';
import { putCommaRight } from '@/components/shared/comma-in-number';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** What the number does, under the field and read with it. */
  hint?: string;
  /** Where a notice in the side panel may send the person (`OptionsPlace`). */
  place?: OptionsPlace;
  /** Stores the number; `false` where it could not be (the page says why), which the field then gives up. */
  onChange(value: number): Promise<boolean> | void;
}

/** How long typing pauses before a number in range is stored, the field not yet left. */
const storeAfterPauseMs = 500;

/**
 * A number the person types. Out of range it is clamped, unreadable it gives way to the value in
 * use, and a note says so: the field never changes without a word. A number in range is stored
 * once typing pauses too (half a second), so that a page closed before the field is left keeps it;
 * text left unreadable then gives way to the number the field had when it took the focus.
 */
export function NumberField({ label, value, min, max, step, hint, place, onChange }: NumberFieldProps) {
  const note = useSignal('');
  const noteId = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : '', note.value ? noteId : ''].filter((id) => id !== '').join(' ');
  const stored = useStoredNumber(value);
  const pause = useDeferredAction(storeAfterPauseMs);
  // The number before this visit to the field, where a pause stored one on the way to another since.
  const before = useRef<number | undefined>(undefined);
  // A comma refused in this visit to the field: said until it is left, with the number kept then
  // ("1,5" typed on is 15), not cleared by the next key.
  const commaRefused = useRef('');
  return (
    <>
      <label class="field">
        <span>{label}</span>
        <input
          ref={stored.input}
          data-place={place}
          type="number"
          min={min}
          max={max}
          step={step}
          aria-describedby={describedBy || undefined}
          onBeforeInput={(event) => {
            const refused = putCommaRight(event, step < 1);
            if (refused !== undefined) note.value = refused;
            if (refused) commaRefused.current = refused;
          }}
          onInput={(event) => {
            stored.typed();
            const typed = event.currentTarget.valueAsNumber;
            // As it would be read at the field's leaving, without a word: anything else waits for that.
            const inRange = typed >= min && typed <= max && (step < 1 || Number.isInteger(typed));
            const store = () => {
              before.current ??= value;
              if (!commaRefused.current) note.value = '';
              stored.whenRefused(onChange(typed));
            };
            pause.schedule(inRange && typed !== value ? store : undefined);
            // A note about a number typed before (clamped, unreadable) is no longer true of one in range.
            if (inRange && !commaRefused.current) note.value = '';
          }}
          onFocus={() => {
            before.current = undefined;
            commaRefused.current = '';
          }}
          onChange={(event) => {
            pause.schedule(undefined);
            const typed = event.currentTarget.valueAsNumber;
            // Said back as typed: a number past what a double holds exactly reads otherwise once parsed.
            const typedText = event.currentTarget.value.trim();
            const used = Number.isFinite(typed) ? Math.min(max, Math.max(min, step >= 1 ? Math.round(typed) : typed)) : (before.current ?? value);
            // An emptied or unreadable field shows the value still in use again, not a blank.
            event.currentTarget.value = String(used);
            const refused = commaRefused.current;
            commaRefused.current = '';
            note.value = used !== typed ? adjustedNote(typed, typedText, used, min, max) : refused ? `${refused} Set to ${figure(used)}.` : '';
            stored.committed();
            if (Number.isFinite(typed) || used !== value) stored.whenRefused(onChange(used));
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

/**
 * Runs the last action given `schedule` once `ms` pass without another (`undefined`: none), and at
 * once where the field goes away first.
 */
function useDeferredAction(ms: number) {
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const action = useRef<(() => void) | undefined>();
  const run = () => {
    clearTimeout(timer.current);
    const next = action.current;
    action.current = undefined;
    next?.();
  };
  useEffect(() => run, []);
  return {
    schedule(next: (() => void) | undefined): void {
      clearTimeout(timer.current);
      action.current = next;
      if (next) timer.current = setTimeout(run, ms);
    },
  };
}

function adjustedNote(typed: number, typedText: string, used: number, min: number, max: number): string {
  if (!Number.isFinite(typed)) return `Not a number: still ${figure(used)}.`;
  if (typed < min || typed > max) return `${typedText} is out of range (${figure(min)} to ${figure(max)}): set to ${figure(used)}.`;
  return `Whole numbers only: set to ${figure(used)}.`;
}
