import { setupAgentSessions } from '../lib/agent/setup-agent-sessions';
import { setupToolRegistry } from '../lib/registry';
import { createStoredRecorder, setupTraceService } from '../lib/traces';

export default defineBackground(() => {
  setupToolRegistry();
  setupAgentSessions(createStoredRecorder());
  setupTraceService();
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
