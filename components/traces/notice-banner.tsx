import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

/** The result of the last action, in words; an error stays until dismissed. */
export function NoticeBanner({ model }: { model: TraceViewerModel }) {
  const notice = model.notice.value;
  if (!notice) return null;
  return (
    <div class={`notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid="notice" data-tone={notice.tone}>
      <span data-testid="notice-text">{notice.text}</span>
      <button type="button" class="link-button" onClick={() => (model.notice.value = undefined)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
