import type { Notice, TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { focusRunList } from './delete-question';

/**
 * The result of the last action, in words; an error stays until dismissed. Both live regions stay
 * in the page and only their text changes: a region added with its text already in it is often
 * not read out. Dismiss sits beside them, not in them: a region that holds a button is read out with
 * its name ("Deleted 1 run. Dismiss").
 */
export function NoticeBanner({ model }: { model: TraceViewerModel }) {
  const notice = model.notice.value;
  return (
    <div
      class={notice ? `notice-banner notice tone-${notice.tone}` : 'notice-banner'}
      {...(notice ? { 'data-testid': 'notice', 'data-tone': notice.tone } : {})}
    >
      <div class="notice-region" role="status" data-testid="notice-status">
        {notice?.tone === 'info' && <NoticeText notice={notice} />}
      </div>
      <div class="notice-region" role="alert" data-testid="notice-alert">
        {notice?.tone === 'error' && <NoticeText notice={notice} />}
      </div>
      {notice && (
        <button type="button" class="link-button" onClick={() => dismiss(model)} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

function NoticeText({ notice }: { notice: Notice }) {
  return <span data-testid="notice-text">{notice.text}</span>;
}

/** The notice goes, and its button with it: a keyboard user's focus goes on from the run list. */
function dismiss(model: TraceViewerModel): void {
  const hadFocus = Boolean(document.activeElement?.closest('[data-testid="notice"]'));
  model.notice.value = undefined;
  if (hadFocus) focusRunList(model);
}
