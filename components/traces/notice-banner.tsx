import type { Notice, TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { focusRunList } from './delete-question';

/**
 * The result of the last action, in words; an error stays until dismissed. Both live regions stay
 * in the page and only their text changes: a region added with its text already in it is often
 * not read out.
 */
export function NoticeBanner({ model }: { model: TraceViewerModel }) {
  const notice = model.notice.value;
  return (
    <>
      <div class="notice-region" role="status" data-testid="notice-status">
        {notice?.tone === 'info' && <NoticeText model={model} notice={notice} />}
      </div>
      <div class="notice-region" role="alert" data-testid="notice-alert">
        {notice?.tone === 'error' && <NoticeText model={model} notice={notice} />}
      </div>
    </>
  );
}

function NoticeText({ model, notice }: { model: TraceViewerModel; notice: Notice }) {
  return (
    <div class={`notice tone-${notice.tone}`} data-testid="notice" data-tone={notice.tone}>
      <span data-testid="notice-text">{notice.text}</span>
      <button type="button" class="link-button" onClick={() => dismiss(model)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

/** The notice goes, and its button with it: a keyboard user's focus goes on from the run list. */
function dismiss(model: TraceViewerModel): void {
  const hadFocus = Boolean(document.activeElement?.closest('[data-testid="notice"]'));
  model.notice.value = undefined;
  if (hadFocus) focusRunList(model);
}
