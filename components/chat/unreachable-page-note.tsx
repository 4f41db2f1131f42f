/**
 * The extension's content script does not run in this tab's page, so its tools cannot be read:
 * say why, and offer the reload that fixes the common case (a page open since before install).
 */
export function UnreachablePageNote({ onReload }: { onReload: () => void }) {
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
      <p class="hint">
        A reload does not help on browser pages (settings, the extension store, PDFs), which stay closed to every
        extension, nor on files from this computer unless the extension is allowed to read them in its details.
      </p>
    </div>
  );
}
