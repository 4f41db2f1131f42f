import '@/assets/theme.css';
import './style.css';
import { render } from 'preact';
import { ChatApp } from '@/components/chat/chat-app';
import { connectAgentPort, listenForPanelWake } from '@/lib/sidepanel/agent-port';
import { followActiveTab } from '@/lib/sidepanel/follow-active-tab';
import { PanelModel } from '@/lib/sidepanel/panel-model';
import { readTabIdParameter } from '@/lib/sidepanel/read-tab-id-parameter';
import { watchFixedTab } from '@/lib/sidepanel/watch-fixed-tab';
import { createDraftStorage } from '@/lib/agent/stored-drafts';
import { browser } from 'wxt/browser';

const model = new PanelModel({
  connect: connectAgentPort,
  onWake: listenForPanelWake,
  draftStorage: createDraftStorage(browser.storage.session),
});

// Opened as a normal tab (`sidepanel.html?tabId=N`) the panel stays on that tab, and says when it
// is closed; as a side panel it follows the active tab of its window.
const fixedTabId = readTabIdParameter(location.search);
if (fixedTabId !== undefined) {
  model.selectTab(fixedTabId);
  watchFixedTab(fixedTabId, {
    replaced: (removedTabId, addedTabId) => {
      model.tabReplaced(removedTabId, addedTabId);
      // A reload of this page finds the tab by its new id.
      history.replaceState(null, '', `?tabId=${addedTabId}`);
    },
    closed: model.tabWasClosed,
  });
} else followActiveTab({ turned: model.selectTab, replaced: model.tabReplaced });

render(<ChatApp model={model} />, document.getElementById('app')!);
