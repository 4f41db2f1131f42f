// Between the background, which writes the runs, and every open trace viewer, which lists them:
// a viewer in a window never focused still shows a run that starts or ends, and runs that go.
const channelName = 'webmcp-agent-trace-runs';

/** Tells every open viewer that the stored runs changed: a run started or ended, runs were deleted or imported. */
export function announceRunsChanged(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(channelName);
  channel.postMessage('changed');
  channel.close();
}

/** Calls `listener` each time the stored runs changed in another context; returns how to stop. */
export function onRunsChanged(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = () => listener();
  return () => channel.close();
}
