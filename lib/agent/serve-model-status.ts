import type { Channel } from '../messaging/port-channel';
import { tellShownChanges } from './load-for-options';
import type { ModelLoadNews } from './model-load-port';
import type { EngineStatus } from './session-state';

/** The engine's status as the background holds it, and its changes. */
export interface FollowedStatus {
  status(): EngineStatus;
  /** `listener` hears each change of the engine's status, until the function this returns is called. */
  watchStatus(listener: () => void): () => void;
}

/**
 * Serves an options page's `modelStatusPort`: the engine's status now, then each change the page
 * shows, until the page closes the port. It loads nothing and keeps nothing going.
 */
export function serveModelStatus(channel: Channel<ModelLoadNews, never>, followed: FollowedStatus): void {
  const tell = tellShownChanges((status) => channel.post({ type: 'status', status }));
  const unwatch = followed.watchStatus(() => tell(followed.status()));
  channel.onDisconnect(unwatch);
  tell(followed.status());
}
