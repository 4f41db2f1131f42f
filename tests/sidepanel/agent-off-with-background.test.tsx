// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { ChatApp } from '@/components/chat/chat-app';
import type { PanelMessage, SessionMessage } from '@/lib/agent/agent-port-protocol';
import { createAgentSessions } from '@/lib/agent/agent-sessions';
import { replayScriptItem } from '@/lib/engines/replay-script';
import type { NotKept } from '@/lib/traces/trace-recorder';
import { loadSettings, updateSettings, watchSettings } from '@/lib/settings';
import type { AgentPort } from '@/lib/sidepanel/agent-port';
import { PanelModel } from '@/lib/sidepanel/panel-model';
import { createMemoryRecorder } from '../support/memory-recorder';

const tools: ToolDescriptor[] = [
  { name: 'search_products', description: 'Search the catalogue.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  { name: 'checkout', description: 'Place the order.', inputSchema: { type: 'object', properties: {} }, annotations: { consequentialHint: true } },
];
const tabId = 7;

/**
 * The whole side panel talking to the background's real agent sessions over an in-memory port,
 * with the settings in the extension's storage: what the panel writes is what the options page reads.
 */
function mountWithBackground(origin = 'https://shop.example', { privateTab = false, notKept }: { privateTab?: boolean; notKept?: NotKept } = {}) {
  const executed: string[] = [];
  const sessions = createAgentSessions({
    loadSettings,
    updateSettings,
    getTabTools: async () => ({ url: `${origin}/mugs`, origin, tools }),
    onTabToolsChanged: () => () => {},
    pageAnswers: async () => true,
    reloadTab: async () => {},
    isPrivateTab: async () => privateTab,
    executeTabTool: async (_tabId, name) => (executed.push(name), { text: `${name} ok` }),
    scorerFor: () => undefined,
    recorder: Object.assign(createMemoryRecorder(), notKept ? { whyNotKept: async () => notKept } : {}),
  });
  // As the background wires them: a change of the settings, from anywhere, redraws the panels.
  const stopWatching = watchSettings(() => sessions.settingsChanged());
  const connect = (): AgentPort => {
    const toPanel = new Set<(message: unknown) => void>();
    let toBackground: (message: unknown) => void = () => {};
    // Messages cross as copies, a turn later, as over a real port.
    const pass = (message: unknown, listener: (message: unknown) => void) => setTimeout(() => listener(structuredClone(message)));
    sessions.connect({
      postMessage: (message: SessionMessage) => toPanel.forEach((listener) => pass(message, listener)),
      onMessage: (listener) => (toBackground = listener),
      onDisconnect: () => {},
    });
    return {
      postMessage: (message: PanelMessage) => pass(message, toBackground),
      onMessage: { addListener: (listener) => void toPanel.add(listener) },
      onDisconnect: { addListener: () => {} },
      disconnect: () => {},
    };
  };
  const model = new PanelModel({ connect });
  const container = document.createElement('div');
  document.body.append(container);
  model.selectTab(tabId);
  render(<ChatApp model={model} />, container);
  return {
    model,
    container,
    executed,
    find: (testId: string) => container.querySelector<HTMLElement>(`[data-testid="${testId}"]`),
    detail: () => container.querySelector('.site-detail')?.textContent,
    until: (check: () => void) => vi.waitFor(check, { timeout: 3_000, interval: 10 }),
    unmount() {
      stopWatching();
      render(null, container);
      container.remove();
      model[Symbol.dispose]();
    },
  };
}

/** A run on the shop whose checkout call waits for the person's answer. */
async function checkoutWaitingForAnswer() {
  await replayScriptItem.setValue({ replies: ['<tool_call>{"name": "checkout", "arguments": {}}</tool_call>', 'Ordered.'], chunkSize: 8, delayMs: 0 });
  const mounted = mountWithBackground();
  await mounted.until(() => expect(mounted.model.canSend.value).toBe(true));
  mounted.model.send('buy it');
  await mounted.until(() => expect(mounted.find('approve-once')).not.toBeNull());
  return mounted;
}

let panel: ReturnType<typeof mountWithBackground> | undefined;
beforeEach(async () => {
  fakeBrowser.reset();
  await updateSettings({ engine: 'replay', disabledSites: ['https://other.example'] });
});
afterEach(() => panel?.unmount());

describe('the agent turned off and on from the panel, with the background and the settings', () => {
  it('lists the site where the options page lists it, and the panel follows, off and back on', async () => {
    panel = mountWithBackground();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    panel.find('agent-off-here')!.click();
    await panel.until(() => expect(panel!.detail()).toBe('Agent off on this site'));
    expect((await loadSettings()).disabledSites).toEqual(['https://other.example', 'https://shop.example']);
    expect(panel.find('agent-off')?.textContent).toContain('You turned it off for shop.example');

    panel.find('agent-on')!.click();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    expect((await loadSettings()).disabledSites).toEqual(['https://other.example']);
    expect(panel.find('agent-off')).toBeNull();
  });

  it('takes back "Allow on this site" from the header, where the options page lists it, keeping the other sites allowed', async () => {
    await updateSettings({ allowedSites: ['https://shop.example', 'https://notes.example'] });
    panel = mountWithBackground();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools · changes allowed'));
    const stop = panel.find('stop-allowing')!;
    expect([stop.textContent, stop.getAttribute('aria-label')]).toEqual(['Stop allowing', 'Stop allowing changes on shop.example without asking']);
    stop.focus();
    stop.click();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    expect((await loadSettings()).allowedSites).toEqual(['https://notes.example']);
    expect(panel.find('stop-allowing')).toBeNull();
    // Said, and the focus is on the header's next control, not lost with the button.
    expect(panel.find('stopped-allowing')?.textContent).toBe('Calls that change shop.example ask you again.');
    expect(document.activeElement).toBe(panel.find('agent-off-here'));
  });

  it('hands the focus to the request box after "Stop allowing" in a private window, whose header has no "Turn agent off"', async () => {
    await updateSettings({ allowedSites: ['https://shop.example'] });
    panel = mountWithBackground('https://shop.example', { privateTab: true });
    await panel.until(() => expect(panel!.detail()).toBe('2 tools · changes allowed'));
    expect(panel.find('agent-off-here')).toBeNull();
    const stop = panel.find('stop-allowing')!;
    stop.focus();
    stop.click();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    expect(document.activeElement).toBe(panel.find('chat-input'));
  });

  it('follows a change made elsewhere (the options page) without being asked', async () => {
    panel = mountWithBackground();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    await updateSettings({ disabledSites: ['https://shop.example'] });
    await panel.until(() => expect(panel!.detail()).toBe('Agent off on this site'));
    await updateSettings({ disabledSites: [] });
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
  });

  it('removes a wider entry that covers the site, as its button said, and its own of the other scheme, keeping the others', async () => {
    await updateSettings({ disabledSites: ['https://other.example', 'https://shop.example', 'http://www.shop.example'] });
    panel = mountWithBackground('https://www.shop.example');
    await panel.until(() => expect(panel!.find('agent-on')?.textContent).toBe('Turn the agent on for shop.example and its subdomains'));
    panel.find('agent-on')!.click();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    expect((await loadSettings()).disabledSites).toEqual(['https://other.example']);
  });

  it('stops a run waiting for the person’s answer at once: its call never runs, and the turn says why', async () => {
    panel = await checkoutWaitingForAnswer();
    expect(panel.find('agent-off-here')).not.toBeNull();

    panel.find('agent-off-here')!.click();
    await panel.until(() => expect(panel!.model.running.value).toBe(false));
    const turn = panel.model.session.value!.turns[0]!;
    expect(turn.outcome).toBe('stopped');
    expect(turn.notice).toBe("The agent is off on shop.example. Turn it back on in the side panel or the extension's options.");
    expect(panel.executed).toEqual([]);
    await panel.until(() => expect(panel!.detail()).toBe('Agent off on this site'));
    expect((await loadSettings()).disabledSites).toContain('https://shop.example');
    const notice = () => panel!.find('turn-notice')?.querySelector('p')?.textContent;
    expect(notice()).toBe("The agent is off on shop.example. Turn it back on in the side panel or the extension's options.");
    expect(panel.find('try-again')).toBeNull();

    // Back on: the turn says so in the past, and offers its request again, as no call ran.
    panel.find('agent-on')!.click();
    await panel.until(() => expect(notice()).toBe('The agent was off on this site, so this request stopped. It is on again.'));
    panel.find('try-again')!.click();
    await panel.until(() => expect(panel!.model.session.value!.turns).toHaveLength(2));
    expect(panel.model.session.value!.turns[1]!.request).toBe('buy it');
  });

  it('stops a run at once when the options page turns its site off, not at the run’s next step', async () => {
    panel = await checkoutWaitingForAnswer();

    await updateSettings({ disabledSites: ['https://shop.example'] });
    await panel.until(() => expect(panel!.model.running.value).toBe(false));
    expect(panel.model.session.value!.turns[0]!.notice).toBe("The agent is off on shop.example. Turn it back on in the side panel or the extension's options.");
    expect(panel.executed).toEqual([]);
  });
});

describe('the panel of a tab in a private window, with the background and the settings', () => {
  it('says nothing is kept, offers no "Turn agent off", and marks a run as not recorded instead of linking a trace', async () => {
    await replayScriptItem.setValue({ replies: ['<tool_call>{"name": "search_products", "arguments": {}}</tool_call>', 'Two mugs.'], chunkSize: 8, delayMs: 0 });
    panel = mountWithBackground('https://shop.example', { privateTab: true });
    await panel.until(() => expect(panel!.find('private-window')?.textContent).toBe('Private window: nothing is kept'));
    expect(panel.find('agent-off-here')).toBeNull();

    panel.model.send('find mugs');
    await panel.until(() => expect(panel!.find('not-recorded')?.textContent).toBe('Not recorded (private window)'));
    expect(panel.find('trace-link')).toBeNull();
    expect(panel.executed).toEqual(['search_products']);
    expect(await loadSettings()).toMatchObject({ disabledSites: ['https://other.example'], allowedSites: [] });
  });

  it('still turns the agent back on where the person turned it off, which keeps nothing of the visit', async () => {
    await updateSettings({ disabledSites: ['https://other.example', 'https://shop.example'] });
    panel = mountWithBackground('https://shop.example', { privateTab: true });
    await panel.until(() => expect(panel!.find('agent-on')).not.toBeNull());
    panel.find('agent-on')!.click();
    await panel.until(() => expect(panel!.detail()).toBe('2 tools'));
    expect((await loadSettings()).disabledSites).toEqual(['https://other.example']);
    expect(panel.find('agent-off-here')).toBeNull();
  });

  it('shows an ordinary tab neither note, and links its run’s trace', async () => {
    await replayScriptItem.setValue({ replies: ['Hello.'], chunkSize: 8, delayMs: 0 });
    panel = mountWithBackground();
    await panel.until(() => expect(panel!.model.canSend.value).toBe(true));
    panel.model.send('hi');
    await panel.until(() => expect(panel!.find('trace-link')).not.toBeNull());
    expect(panel.find('private-window')).toBeNull();
    expect(panel.find('not-recorded')).toBeNull();
  });

  it('says a run is not recorded where traces cannot be stored (a newer version left the database), instead of linking a trace the viewer cannot show', async () => {
    await replayScriptItem.setValue({ replies: ['Hello.'], chunkSize: 8, delayMs: 0 });
    panel = mountWithBackground('https://shop.example', { notKept: 'cannot-store' });
    await panel.until(() => expect(panel!.model.canSend.value).toBe(true));
    panel.model.send('hi');
    await panel.until(() => expect(panel!.find('not-recorded')?.textContent).toBe('Not recorded (traces cannot be stored here)'));
    expect(panel.find('trace-link')).toBeNull();
  });
});
