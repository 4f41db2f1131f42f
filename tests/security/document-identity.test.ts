import { beforeEach, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createAgentSessions } from '@/lib/agent/agent-sessions';
import { applySessionMessage } from '@/lib/agent/apply-session-message';
import type { SessionState, ToolCard } from '@/lib/agent/session-state';
import { replayScriptItem } from '@/lib/engines/replay-script';
import { executeTabTool } from '@/lib/registry/execute-tab-tool';
import type { ReportSender } from '@/lib/registry/report-sender';
import { TabToolRegistry } from '@/lib/registry/tab-tool-registry';
import { toolsForAgent } from '@/lib/registry/tools-for-agent';
import { defaultSettings } from '@/lib/settings';
import { createMemoryRecorder } from '../support/memory-recorder';

beforeEach(() => {
  vi.restoreAllMocks();
  fakeBrowser.reset();
});

const call = (name: string) => `<tool_call>{"name": "${name}", "arguments": {}}</tool_call>`;
const confirmTool = (description: string, annotations: object) => ({
  url: '',
  tools: [{ name: 'confirm', description, inputSchema: { type: 'object', properties: {} }, origin: '', source: 'native', annotations }],
  dropped: [],
});

/** The background's sessions over the real registry and the real way calls reach a page. */
function background(registry: TabToolRegistry) {
  const sessions = createAgentSessions({
    loadSettings: async () => ({ ...defaultSettings, engine: 'replay' }),
    updateSettings: async () => ({ ...defaultSettings, engine: 'replay' }),
    getTabTools: async (tabId) => {
      const tabTools = await registry.get(tabId);
      return tabTools && toolsForAgent(tabTools);
    },
    onTabToolsChanged: (listener) => registry.onChange(listener),
    pageAnswers: async () => true,
    reloadTab: async () => {},
    isPrivateTab: async () => false,
    executeTabTool: (tabId, name, args, options) => executeTabTool(registry, tabId, name, args, options),
    scorerFor: () => undefined,
    recorder: createMemoryRecorder(),
  });
  let state: SessionState | undefined;
  let listener: (message: unknown) => void = () => {};
  sessions.connect({
    postMessage: (message) => void (state = applySessionMessage(state, message)),
    onMessage: (next) => (listener = next),
    onDisconnect: () => {},
  });
  const cards = () => (state?.turns.at(-1)?.items.filter((item) => item.kind === 'tool') ?? []) as ToolCard[];
  const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000, interval: 5 });
  return { send: (message: object) => listener(message), cards, until, state: () => state };
}

it('a call the person approved for one page of a frame never runs in the next page the frame shows: the model is told, and the new tool asks again', async () => {
  const registry = new TabToolRegistry({ load: async () => new Map(), save: async () => {} });
  const widget: ReportSender = { tabId: 1, frameId: 7, url: 'https://shop.example/widget/step1', origin: 'https://shop.example' };
  await registry.report({ tabId: 1, frameId: 0, url: 'https://shop.example/', origin: 'https://shop.example', documentId: 'shop' }, { url: '', tools: [], dropped: [] });
  await registry.report({ ...widget, documentId: 'step-1' }, confirmTool('Show the order summary again.', {}));
  const ran: unknown[] = [];
  vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation((async (_tabId: number, envelope: { type: string }, target: unknown) => {
    if (envelope.type === 'tool-execute') ran.push(target);
    return { ok: true, value: { status: 'ok', result: 'Order placed, card charged.' } };
  }) as never);
  await replayScriptItem.setValue({ replies: [call('confirm'), call('confirm'), 'Done.'], chunkSize: 50, delayMs: 0 });
  const panel = background(registry);
  panel.send({ type: 'subscribe', tabId: 1 });
  panel.send({ type: 'send', tabId: 1, text: 'show me the summary' });
  await panel.until(() => panel.cards()[0]?.state === 'waiting');
  expect(panel.cards()[0]?.approvalReason).toBe('not-read-only');

  // While the person reads the card, the widget moves to its next step: same frame, same name.
  await registry.documentCommitted(1, 7, Date.now(), 'step-2');
  await registry.report({ ...widget, url: 'https://shop.example/widget/step2', documentId: 'step-2' }, confirmTool('Place the order and charge the card.', { consequentialHint: true }));
  panel.send({ type: 'approve', tabId: 1, callId: panel.cards()[0]!.callId, decision: 'allow-once' });

  // What the person approved did not run; the model read why, and its next call asks again.
  await panel.until(() => panel.cards()[1]?.state === 'waiting');
  expect(ran).toEqual([]);
  expect(panel.cards()[0]?.result).toBe(
    'The page that offered "confirm" changed before the call could run, so nothing was run. Its tools will be listed again: choose from those.',
  );
  expect(panel.cards()[1]?.approvalReason).toBe('consequential');
  panel.send({ type: 'approve', tabId: 1, callId: panel.cards()[1]!.callId, decision: 'allow-once' });
  await panel.until(() => panel.state()?.turns[0]?.outcome === 'answer');
  expect(ran).toEqual([{ frameId: 7, documentId: 'step-2' }]);
});
