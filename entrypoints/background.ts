import { setupAgentSessions } from '../lib/agent/setup-agent-sessions';
import { setupToolRegistry } from '../lib/registry';
import { createStoredRecorder, setupTraceService } from '../lib/traces';
import { keepStoragePrivate } from '../lib/service-worker/keep-storage-private';

export default defineBackground(() => {
  void keepStoragePrivate(browser.storage);
  setupToolRegistry();
  setupAgentSessions(createStoredRecorder());
  setupTraceService();
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
