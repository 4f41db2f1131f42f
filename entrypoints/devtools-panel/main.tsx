import './style.css';
import { render } from 'preact';
import { browser } from 'wxt/browser';
import { InspectorApp } from '@/components/inspector/inspector-app';
import { InspectorModel } from '@/components/inspector/inspector-model';
import { copyText } from '@/lib/text/copy-text';
import { inspectorPort } from '@/lib/messaging/inspector-protocol';
import { connectChannel } from '@/lib/messaging/port-channel';
import { scorerFor } from '@/lib/agent/scorer-for';
import { followSettings, type Settings } from '@/lib/settings';

// In devtools the panel inspects the inspected tab; opened as a tab, `?tabId=N` names it.
const parameter = new URLSearchParams(location.search).get('tabId');
const tabId = parameter !== null ? Number(parameter) : browser.devtools?.inspectedWindow?.tabId;
const app = document.getElementById('app')!;

if (tabId === undefined || !Number.isInteger(tabId)) {
  app.textContent = 'Open this panel from devtools, or as devtools-panel.html?tabId=N.';
} else {
  const model = new InspectorModel(tabId, () => connectChannel(inspectorPort));
  model.open();
  // The agent's ranker, the sites where it is off, its longest reply and its tool timeout, kept up to date while the panel is open; a timeout the
  // person typed here stays until the setting itself changes.
  let followedTimeout: number | undefined;
  const follow = (settings: Settings) => {
    model.scorer.value = scorerFor(settings);
    model.disabledSites.value = settings.disabledSites;
    model.replyTokens.value = settings.replyTokens;
    if (settings.toolTimeoutSeconds !== followedTimeout) model.timeoutSeconds.value = followedTimeout = settings.toolTimeoutSeconds;
  };
  // Unread, the inspector goes by the defaults it starts with.
  followSettings(follow);
  render(<InspectorApp model={model} copyText={copyText} />, app);
}
