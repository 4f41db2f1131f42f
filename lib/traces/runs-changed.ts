// Between the background, which writes the runs, and every open trace viewer, which lists them:
// a viewer in another window, never focused, still shows a run that ends or runs that go.
const channelName = 'webmcp-agent-trace-runs';

/** Says to every open viewer that the stored runs changed: a run ended, or runs were deleted or imported. */
export function announceRunsChanged(): void {
  try {
    const channel = new BroadcastChannel(channelName);
    channel.postMessage('changed');
    channel.close();
  } catch {
    // A context without BroadcastChannel: viewers still read the list again when focused.
  }
}

/** Calls `listener` each time the stored runs changed in another context; returns how to stop. */
export function onRunsChanged(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = () => listener();
  return () => channel.close();
}
