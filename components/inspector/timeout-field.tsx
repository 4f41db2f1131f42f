import { useSignal } from '@preact/signals';
import { putCommaRight } from '@/components/shared/comma-in-number';
import { maxTimeoutSeconds, minTimeoutSeconds } from './hand-runs';
import type { InspectorModel } from './inspector-model';

/**
 * The header's "Timeout (s)": how long a run started here may take. A number in range is used as
 * it is typed; once the field is left, one out of range is brought into range, and anything else
 * gives way to the value in use, with a note that says so: the field never shows a value runs do not use.
 */
export function TimeoutField({ model }: { model: InspectorModel }) {
  const note = useSignal('');
  const read = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return (
    <span class="timeout">
      <label>
        Timeout (s){' '}
        <input
          type="number"
          min={minTimeoutSeconds}
          max={maxTimeoutSeconds}
          step="1"
          value={model.timeoutSeconds.value}
          aria-describedby={note.value ? 'timeout-note' : undefined}
          onBeforeInput={(event) => {
            const refused = putCommaRight(event, true);
            if (refused) note.value = refused;
          }}
          onInput={(event) => {
            const seconds = read(event.currentTarget.value);
            if (seconds >= minTimeoutSeconds && seconds <= maxTimeoutSeconds) {
              model.setTimeoutSeconds(seconds);
              note.value = '';
            }
          }}
          onChange={(event) => {
            const typed = read(event.currentTarget.value);
            const used = model.setTimeoutSeconds(typed);
            event.currentTarget.value = String(used);
            note.value = typed === used ? '' : `A timeout is ${minTimeoutSeconds} to ${maxTimeoutSeconds} s: ${Number.isFinite(typed) ? 'set to' : 'still'} ${used} s.`;
          }}
        />
      </label>
      {note.value && (
        <span id="timeout-note" class="timeout-note" role="status">
          {note.value}
        </span>
      )}
    </span>
  );
}
