import type { SessionState } from '@/lib/agent/session-state';

/**
 * The extension's content script does not run in this tab's page, so its tools cannot be read:
 * say why, and offer the reload that fixes the common case (a page open since before install).
 * A browser page, or a file the extension may not read, gets no reload that would not help.
 */
export function UnreachablePageNote({ closedPage, onReload }: { closedPage: SessionState['closedPage']; onReload: () => void }) {
  if (closedPage === 'browser') {
    return (
      <div class="empty-state" data-testid="page-unreachable" data-closed="browser">
        <h2>No extension can work on this page</h2>
        <p>
          Browser pages (the new tab page, settings, the extension store, PDFs) stay closed to every extension. Open
          a web site that offers tools.
        </p>
      </div>
    );
  }
  if (closedPage === 'file') {
    return (
      <div class="empty-state" data-testid="page-unreachable" data-closed="file">
        <h2>This file needs your permission</h2>
        <p>
          The extension reads files from this computer only where you allow it: turn on “Allow access to file URLs”
          in its details (chrome://extensions), then reload this page.
        </p>
        <p>
          <button type="button" class="button" data-testid="reload-page" onClick={onReload}>
            Reload page
          </button>
        </p>
      </div>
    );
  }
  return (
    <div class="empty-state" data-testid="page-unreachable">
      <h2>Reload this page to use its tools</h2>
      <p>
        The extension cannot read this page yet. Pages that were open before the extension was installed or
        updated need a reload.
      </p>
      <p>
        <button type="button" class="button primary" data-testid="reload-page" onClick={onReload}>
          Reload page
        </button>
      </p>
    </div>
  );
}
