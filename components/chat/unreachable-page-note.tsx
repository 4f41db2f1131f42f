import type { ComponentChildren } from 'preact';
import type { SessionState } from '@/lib/agent/session-state';

/**
 * The extension's content script does not run in this tab's page, so its tools cannot be read:
 * say why, and offer the reload that fixes the common case (a page open since before install).
 * A browser page, or a file the extension may not read, gets no reload that would not help; a page
 * that did not load is not the extension's doing, and is told apart, as is a tab Chrome unloaded
 * to save memory (which a reload wakes).
 */
export function UnreachablePageNote({
  closedPage,
  loadFailed = false,
  asleep = false,
  onReload,
}: {
  closedPage: SessionState['closedPage'];
  loadFailed?: boolean;
  asleep?: boolean;
  onReload: () => void;
}) {
  if (asleep) {
    return (
      <Note closed="asleep" heading="This tab is asleep">
        <p>Chrome unloaded this tab's page to save memory, so its tools are not there. Wake it to load the page again.</p>
        <ReloadButton onReload={onReload} label="Wake the page" />
      </Note>
    );
  }
  if (closedPage === 'browser') {
    return (
      <Note closed="browser" heading="No extension can work on this page">
        <p>
          Browser pages (the new tab page, settings, the extension store, PDFs) and extensions' own pages stay
          closed to every extension. Open a web site that offers tools.
        </p>
      </Note>
    );
  }
  if (closedPage === 'file') {
    return (
      <Note closed="file" heading="This file needs your permission">
        <p>
          The extension reads files from this computer only where you allow it: turn on “Allow access to file URLs”
          in its details (chrome://extensions), then reload this page.
        </p>
        <ReloadButton onReload={onReload} primary={false} />
      </Note>
    );
  }
  if (loadFailed) {
    return (
      <Note closed="load-failed" heading="This page did not load">
        <p>Chrome could not load this page, so it offers no tools. Check the connection and the address, then reload it.</p>
        <ReloadButton onReload={onReload} />
      </Note>
    );
  }
  return (
    <Note heading="Reload this page to use its tools">
      <p>
        The extension cannot read this page yet. Pages that were open before the extension was installed or updated
        need a reload.
      </p>
      <ReloadButton onReload={onReload} />
    </Note>
  );
}

function Note({ closed, heading, children }: { closed?: string; heading: string; children: ComponentChildren }) {
  return (
    <div class="empty-state" data-testid="page-unreachable" data-closed={closed}>
      <h2>{heading}</h2>
      {children}
    </div>
  );
}

function ReloadButton({ onReload, primary = true, label = 'Reload page' }: { onReload: () => void; primary?: boolean; label?: string }) {
  return (
    <p>
      <button type="button" class={primary ? 'button primary' : 'button'} data-testid="reload-page" onClick={onReload}>
        {label}
      </button>
    </p>
  );
}
