// What the background tells every open trace viewer, so that one in a window never focused keeps
// up: the stored runs changed, or the tabs a run can be replayed in did. Only that something
// changed is said; a viewer reads again what it shows.
const runsChannel = 'webmcp-agent-trace-runs';
const replayTabsChannel = 'webmcp-agent-replay-tabs';

/** Tells every open viewer that the stored runs changed: a run started or ended, runs were deleted or imported. */
export function announceRunsChanged(): void {
  announce(runsChannel);
}

/** Calls `listener` each time the stored runs changed in another context; returns how to stop. */
export function onRunsChanged(listener: () => void): () => void {
  return hear(runsChannel, listener);
}

/** Tells every open viewer that a tab's tools changed: a page reported them, took them back, left or closed. */
export function announceReplayTabsChanged(): void {
  announce(replayTabsChannel);
}

/** Calls `listener` each time a tab's tools changed in the background; returns how to stop. */
export function onReplayTabsChanged(listener: () => void): () => void {
  return hear(replayTabsChannel, listener);
}

function announce(name: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(name);
  channel.postMessage('changed');
  channel.close();
}

function hear(name: string, listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(name);
  channel.onmessage = () => listener();
  return () => channel.close();
}
