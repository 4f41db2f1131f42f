import type { StatusPublisher } from './engine-status-publisher';
import type { RunTracker } from './run-tracker';
import type { TabEngineNews } from './tab-engine-news';

/** What the engine host's parts share: the status every panel is told, the runs going on, each tab's news. */
export interface EngineHostParts {
  shared: StatusPublisher;
  runs: RunTracker;
  news: TabEngineNews;
}
