import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setupAgentSessions } from '@/lib/agent/setup-agent-sessions';
import type { TraceRecorder } from '@/lib/traces/trace-recorder';
import type { TabDrivers } from '@/lib/service-worker/tab-drivers';
import type { AgentSessionsBackground } from '@/lib/agent/agent-sessions-background';
import { createTabSnapshots, type TabSnapshotsHost } from '@/lib/agent/tab-snapshots';
import type { TabSession } from '@/lib/agent/tab-session';
import { defaultSettings } from '@/lib/settings/settings-schema';
import { watchedBackgroundTabEvents } from '../support/watched-tab-events';

// Only the browser events' wiring is checked here: the sessions are a stand-in, and the panels' port is not opened.
const sessions = vi.hoisted(() => ({
  navigated: vi.fn(),
  pageLoaded: vi.fn(),
  toolsChanged: vi.fn(),
  settingsChanged: vi.fn(),
  modelsChanged: vi.fn(),
  needsNavigations: vi.fn(() => false),
  keepTabs: vi.fn(async () => false),
  // The engine's status, and whoever follows it: the test changes it as a load would.
  engineStatus: {
    now: { state: 'idle' } as { state: string },
    watchers: [] as (() => void)[],
    status() {
      return this.now;
    },
    watchStatus(watcher: () => void) {
      this.watchers.push(watcher);
      return () => {};
    },
  },
}));
// What the background gives the sessions, as wired to the browser.
const wired = vi.hoisted(() => ({ background: undefined as unknown }));
vi.mock('@/lib/agent/agent-sessions', () => ({
  createAgentSessions: (background: unknown) => {
    wired.background = background;
    return sessions;
  },
}));
vi.mock('@/lib/messaging/port-channel', () => ({ acceptNamedChannels: vi.fn(), acceptChannels: vi.fn() }));
import { acceptNamedChannels, type Channel } from '@/lib/messaging/port-channel';
Object.assign(fakeBrowser.tabs, { onReplaced: { addListener: () => {} } });

const tabEvents = watchedBackgroundTabEvents();
let acceptPanel: (channel: Channel<unknown, unknown>) => void;
// Once: the fake browser's navigation events keep their listeners through a reset.
beforeAll(() => {
  setupAgentSessions({} as TraceRecorder, {} as TabDrivers, tabEvents.events);
  acceptPanel = vi.mocked(acceptNamedChannels).mock.calls[0]![2] as typeof acceptPanel;
});
beforeEach(() => vi.clearAllMocks());

describe('the agent sessions as the background wires them to tab life', () => {
  it('tells a tab’s panels of its top frame’s completed load, not of a frame’s within it', async () => {
    await fakeBrowser.webNavigation.onCompleted.trigger({ tabId: 4, frameId: 0, url: 'https://shop.example/', processId: 1, timeStamp: 0 } as never);
    await fakeBrowser.webNavigation.onCompleted.trigger({ tabId: 4, frameId: 7, url: 'https://ads.example/', processId: 1, timeStamp: 0 } as never);
    expect(sessions.pageLoaded.mock.calls).toEqual([[4]]);
  });

  it('tells a tab’s panels of a page that failed to load as of a completed one, so they stop describing the page before', async () => {
    const failed = { tabId: 4, url: 'https://offline.example/', error: 'net::ERR_INTERNET_DISCONNECTED', processId: 1, timeStamp: 0 };
    await fakeBrowser.webNavigation.onErrorOccurred.trigger({ ...failed, frameId: 0 } as never);
    await fakeBrowser.webNavigation.onErrorOccurred.trigger({ ...failed, frameId: 7 } as never);
    expect(sessions.pageLoaded.mock.calls).toEqual([[4]]);
  });

  it('ends the run of a tab whose page gave way to Chrome’s error page, not of one whose navigation was cancelled before it committed', async () => {
    // As Chromium 156 tells them: a host that does not resolve commits an error page (a document of
    // its own); a download or a 204 answer cancels the navigation, and the page stays.
    const failed = { tabId: 4, frameId: 0, url: 'https://offline.example/', error: 'net::ERR_NAME_NOT_RESOLVED', documentId: '273A1A192517FA05E8AB6072CDF39552' };
    const cancelled = { tabId: 5, frameId: 0, url: 'https://shop.example/invoice.pdf', error: 'net::ERR_ABORTED', documentId: '00000000000000000000000000000000' };
    await fakeBrowser.webNavigation.onErrorOccurred.trigger({ ...failed, processId: 1, timeStamp: 0 } as never);
    await fakeBrowser.webNavigation.onErrorOccurred.trigger({ ...cancelled, processId: 1, timeStamp: 0 } as never);
    await fakeBrowser.webNavigation.onErrorOccurred.trigger({ ...failed, frameId: 7, processId: 1, timeStamp: 0 } as never);
    expect(sessions.navigated.mock.calls).toEqual([[4, failed.documentId]]);
  });
});

describe("the word to the extension's pages that a load begins", () => {
  it('goes out once as each load begins, not at each of its changes', () => {
    const sent = vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockResolvedValue(undefined);
    const engine = sessions.engineStatus;
    const becomes = (state: string) => {
      engine.now = { state };
      engine.watchers.forEach((watcher) => watcher());
    };
    becomes('loading');
    becomes('loading');
    becomes('ready');
    becomes('generating');
    becomes('idle');
    becomes('loading');
    expect(sent.mock.calls).toEqual([[{ type: 'model-loading' }], [{ type: 'model-loading' }]]);
  });
});

describe('the tab events the agent sessions need heard', () => {
  const open = (contexts: { contextType: string; documentUrl?: string }[]) => vi.spyOn(fakeBrowser.runtime, 'getContexts').mockResolvedValue(contexts as never);
  const drafts = (keys: string[]) => vi.spyOn(fakeBrowser.storage.session, 'getKeys').mockResolvedValue(keys as never);
  /** Whether navigations, then tab removals, are needed now. */
  const needed = async () => [await tabEvents.navigations.needed(), await tabEvents.tabRemovals.needed()];

  it('needs none while no panel is open and no tab has a chat or a draft: the trace viewer or the options page need none', async () => {
    open([{ contextType: 'TAB', documentUrl: fakeBrowser.runtime.getURL('/traces.html') }, { contextType: 'TAB', documentUrl: fakeBrowser.runtime.getURL('/options.html') }]);
    drafts(['webmcp-tab-tools:4', 'agentTurn:4:first']);
    await expect(needed()).resolves.toEqual([false, false]);
  });

  it('needs both while the side panel is open (connected or resting: no port tells it then), or its page is shown in a tab', async () => {
    drafts([]);
    open([{ contextType: 'SIDE_PANEL', documentUrl: fakeBrowser.runtime.getURL('/sidepanel.html') }]);
    await expect(needed()).resolves.toEqual([true, true]);
    open([{ contextType: 'TAB', documentUrl: `${fakeBrowser.runtime.getURL('/sidepanel.html')}?tab=4` }]);
    await expect(needed()).resolves.toEqual([true, true]);
  });

  it('needs tab removals only while a tab keeps a draft: it goes with its tab', async () => {
    open([]);
    drafts(['panelDraft:4']);
    await expect(needed()).resolves.toEqual([false, true]);
  });

  it('keeps no draft to follow in a Chrome that cannot list storage’s keys (older than 130), where none is stored', async () => {
    open([]);
    const { getKeys } = fakeBrowser.storage.session;
    Object.assign(fakeBrowser.storage.session, { getKeys: undefined });
    try {
      await expect(needed()).resolves.toEqual([false, false]);
    } finally {
      Object.assign(fakeBrowser.storage.session, { getKeys });
    }
  });

  it('hears both at once as a panel connects, and asks again once it leaves', () => {
    for (const watched of [tabEvents.navigations, tabEvents.tabRemovals]) watched.calls.length = 0;
    let leave = () => {};
    const connect = vi.fn();
    Object.assign(sessions, { connect });
    acceptPanel({ post: () => true, onMessage: () => {}, onDisconnect: (listener: () => void) => void (leave = listener), disconnect: () => {} } as never);
    expect([tabEvents.navigations.calls, tabEvents.tabRemovals.calls]).toEqual([['needed'], ['needed']]);
    expect(connect).toHaveBeenCalledTimes(1);
    leave();
    expect([tabEvents.navigations.calls, tabEvents.tabRemovals.calls]).toEqual([['needed', 'recheck'], ['needed', 'recheck']]);
  });

  it('asks again whether navigations are needed once a run ends: it may have been the last reason', () => {
    tabEvents.navigations.calls.length = 0;
    const release = (wired.background as AgentSessionsBackground).keepAwake!();
    expect(tabEvents.navigations.calls).toEqual([]);
    release();
    expect(tabEvents.navigations.calls).toEqual(['recheck']);
  });

  it('needs navigations while the sessions do (a panel connected, a run going), and tab removals while they keep a tab', async () => {
    open([]);
    drafts([]);
    sessions.needsNavigations.mockReturnValueOnce(true);
    sessions.keepTabs.mockResolvedValueOnce(true);
    await expect(needed()).resolves.toEqual([true, true]);
    // A chat at rest: its tab's closing matters, not the pages opened anywhere.
    sessions.keepTabs.mockResolvedValueOnce(true);
    await expect(needed()).resolves.toEqual([false, true]);
  });
});

describe('the agent sessions as the options page tells them of models', () => {
  it('hears that a model was downloaded or deleted from the extension’s own pages only', async () => {
    const answers: unknown[] = [];
    const tell = (url: string) => fakeBrowser.runtime.onMessage.trigger({ type: 'local-models-changed' }, { id: fakeBrowser.runtime.id, url }, (answer: unknown) => answers.push(answer));
    await tell(fakeBrowser.runtime.getURL('/options.html'));
    await tell('https://shop.example/');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(sessions.modelsChanged).toHaveBeenCalledTimes(1);
    expect(answers).toEqual([{ heard: true }, { heard: false }]);
  });
});

describe('a tab whose page reported no tools, as its snapshot reads it from the browser', () => {
  it('asks Chrome for the top frame once, for its address and whether it failed to load', async () => {
    const getFrame = vi.spyOn(fakeBrowser.webNavigation, 'getFrame').mockResolvedValue({ url: 'https://typo.example/', errorOccurred: true, parentFrameId: -1 } as never);
    const background = {
      ...(wired.background as AgentSessionsBackground),
      loadSettings: async () => defaultSettings,
      getTabTools: async () => undefined,
      isPrivateTab: async () => false,
      pageAnswers: async () => false,
    };
    const published: unknown[] = [];
    const host = {
      background,
      panels: new Map([[4, new Set([{}])]]),
      sessionFor: async () => ({ turns: [] }) as unknown as TabSession,
      engines: { describe: () => {} },
      previews: { previewFor: async () => undefined },
      engineStatusFor: () => ({ state: 'idle' }),
      endedChat: () => undefined,
      askingElsewhere: () => undefined,
      publish: (_tabId: number, message: unknown) => published.push(message),
    } as unknown as TabSnapshotsHost;
    await createTabSnapshots(host).send(4);
    expect(getFrame.mock.calls).toEqual([[{ tabId: 4, frameId: 0 }]]);
    expect(published).toMatchObject([{ type: 'snapshot', state: { url: 'https://typo.example/', pageReachable: false, pageLoadFailed: true } }]);
    getFrame.mockRestore();
  });

  it("names the extension's own page a tab is opening (the panel's Trace or Options) as one no extension works on, before its document runs", async () => {
    vi.spyOn(fakeBrowser.webNavigation, 'getFrame').mockResolvedValue(null as never);
    vi.spyOn(fakeBrowser.runtime, 'getContexts').mockResolvedValue([] as never);
    const traces = fakeBrowser.runtime.getURL('/traces.html?run=r1');
    vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation((async (tabId: number) => ({ id: tabId, pendingUrl: tabId === 4 ? traces : undefined })) as never);
    const background = wired.background as AgentSessionsBackground;
    await expect(background.topFrame!(4)).resolves.toEqual({ url: traces });
    // Another page, whose address the extension is not told, stays unnamed.
    await expect(background.topFrame!(5)).resolves.toBeNull();
    vi.restoreAllMocks();
  });
});

describe('a top-frame navigation, as the sessions are told it', () => {
  it('says whether the person brought it (a reload, an address typed, Back), not a link or a form of the page', async () => {
    const committed = (tabId: number, transitionType: string, transitionQualifiers: string[] = []) =>
      fakeBrowser.webNavigation.onCommitted.trigger({ tabId, frameId: 0, documentId: `DOC-${tabId}`, url: 'https://shop.example/', transitionType, transitionQualifiers, processId: 1, timeStamp: 0 } as never);
    await committed(1, 'reload');
    await committed(2, 'typed', ['from_address_bar']);
    await committed(3, 'link', ['forward_back']);
    await committed(4, 'link');
    await committed(5, 'form_submit');
    await committed(6, 'link', ['client_redirect']);
    expect(sessions.navigated.mock.calls).toEqual([
      [1, 'DOC-1', true],
      [2, 'DOC-2', true],
      [3, 'DOC-3', true],
      [4, 'DOC-4', false],
      [5, 'DOC-5', false],
      [6, 'DOC-6', false],
    ]);
  });
});
