import { setupAgentSessions } from '../lib/agent/setup-agent-sessions';
import { setupToolRegistry } from '../lib/registry';
import { createStoredRecorder, setupTraceService } from '../lib/traces';
import { keepStoragePrivate } from '../lib/service-worker/keep-storage-private';
import { createTabDrivers } from '../lib/service-worker/tab-drivers';

export default defineBackground(() => {
  void keepStoragePrivate(browser.storage);
  setupToolRegistry();
  // The agent and the trace viewer's replays take turns at a tab's tools.
  const tabDrivers = createTabDrivers();
  setupAgentSessions(createStoredRecorder(), tabDrivers);
  setupTraceService(tabDrivers);
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
