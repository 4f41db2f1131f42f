import { setupAgentSessions } from '../lib/agent/setup-agent-sessions';
import { setupToolRegistry } from '../lib/registry';
import { createStoredRecorder, setupTraceService } from '../lib/traces';
import { keepStoragePrivate } from '../lib/service-worker/keep-storage-private';
import { createTabDrivers } from '../lib/service-worker/tab-drivers';
import { createTabEvents } from '../lib/service-worker/tab-events';
import { openWelcomeOnInstall } from '../lib/service-worker/welcome-on-install';
import { answerModelDeletions } from '../lib/engines/webllm/model-deletion-messages';
import { realWebLlm } from '../lib/engines/webllm/webllm-module';
import { keepWebLlmInstalled } from '../lib/engines/webllm/webllm-script';
import { webLlmRuntime } from '../lib/engines/webllm/webllm-runtime';

export default defineBackground(() => {
  // WebLLM is read when a model is needed, not at each start of the worker.
  keepWebLlmInstalled();
  void keepStoragePrivate(browser.storage);
  // Heard only while needed: otherwise every page opened, and every tab closed, would start the worker.
  const tabEvents = { navigations: createTabEvents(), tabRemovals: createTabEvents() };
  setupToolRegistry(tabEvents);
  // The agent and the trace viewer's replays take turns at a tab's tools.
  const tabDrivers = createTabDrivers();
  setupAgentSessions(createStoredRecorder(), tabDrivers, tabEvents);
  setupTraceService(tabDrivers);
  // The options page deletes stored models: a load of one of them stops first.
  answerModelDeletions(() => webLlmRuntime(realWebLlm));
  openWelcomeOnInstall();
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
