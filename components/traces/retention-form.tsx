import { useEffect } from 'preact/hooks';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { figure } from '@/lib/text/plural';
import { sayCommaAtField } from '@/components/shared/comma-in-number';

/** Whether runs are kept as traces, and how many: the last N runs, or M megabytes, whichever is reached first. */
export function RetentionForm({ model }: { model: TraceViewerModel }) {
  useEffect(() => void model.loadRetention(), [model]);
  const settings = model.retention.value;
  if (!settings) return null;
  // Whole numbers: a comma is refused at the field, not read as a thousands separator ("1,5" as 15).
  const commaProps = sayCommaAtField(false);
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const typed = { keepTraces: form.get('keepTraces') === 'on', maxRuns: Number(form.get('maxRuns')), maxMegabytes: Number(form.get('maxMegabytes')) };
    // Only what the person changed of what this form showed: another viewer may have saved the rest since.
    void model.saveRetention(Object.fromEntries(Object.entries(typed).filter(([key, value]) => settings[key as keyof typeof typed] !== value)));
  };
  return (
    <details class="retention">
      <summary>{settings.keepTraces ? `Keeping ${figure(settings.maxRuns)} runs, up to ${figure(settings.maxMegabytes)} MB` : 'Keeping no traces'}</summary>
      <form onSubmit={onSubmit} data-testid="retention-settings">
        <label>
          <input name="keepTraces" type="checkbox" checked={settings.keepTraces} />
          Keep a trace of each run (the request, the prompts, the page's answers), on this computer
        </label>
        <label>
          Last runs kept
          <input name="maxRuns" type="number" {...commaProps} min={1} max={10_000} step={1} required value={settings.maxRuns} />
        </label>
        <label>
          Megabytes at most
          <input name="maxMegabytes" type="number" {...commaProps} min={1} max={2_000} step={1} required value={settings.maxMegabytes} />
        </label>
        <button type="submit">Save</button>
        <p class="muted">The oldest runs are removed first, when the next run ends.</p>
      </form>
    </details>
  );
}
