/**
 * The page offers no WebMCP tools: say so, and how a site author adds some; or that it is still
 * loading, and may; or (`refused`) that it offers tools the agent refused every one of. Under a chat
 * of the page's site (`askAboutChat`), that it can still be asked about.
 */
export function NoToolsNote({ compact, loading = false, refused = false, askAboutChat = false }: { compact: boolean; loading?: boolean; refused?: boolean; askAboutChat?: boolean }) {
  if (loading) {
    return compact ? (
      <p class="notice-box tone-neutral" data-testid="empty-no-tools" data-loading="true">
        This page is still loading: its tools, if it offers any, appear once it has.
      </p>
    ) : (
      <div class="empty-state" data-testid="empty-no-tools" data-loading="true">
        <h2>This page is still loading</h2>
        <p>Its tools, if it offers any, appear here once it has loaded.</p>
      </div>
    );
  }
  const why = 'the WebMCP panel in DevTools lists them, with why';
  if (compact) {
    return (
      <p class="notice-box tone-neutral" data-testid="empty-no-tools">
        {refused ? `This page offers tools right now, none the agent can use: ${why}.` : 'This page offers no tools right now.'}
        {askAboutChat && ' You can still ask about this chat.'}
      </p>
    );
  }
  if (refused) {
    return (
      <div class="empty-state" data-testid="empty-no-tools">
        <h2>No tools the agent can use</h2>
        <p>
          {`This page offers tools, and the agent refused each one (a name it does not take, a frame the page did not allow tools, or a limit passed): ${why}.`}
        </p>
      </div>
    );
  }
  return (
    <div class="empty-state" data-testid="empty-no-tools">
      <h2>No tools on this page</h2>
      <p>
        The agent works through the tools a page offers, and this one offers none. A page that offers tools shows
        how many on the extension's icon, once it is pinned to the toolbar.
      </p>
      <p class="hint">
        For site authors: add tools with <code>document.modelContext.registerTool(…)</code> or a form marked{' '}
        <code>&lt;form toolname="…"&gt;</code>.
      </p>
    </div>
  );
}
