import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setupAgentSessions } from '@/lib/agent/setup-agent-sessions';
import type { TraceRecorder } from '@/lib/traces/trace-recorder';
import type { TabDrivers } from '@/lib/service-worker/tab-drivers';

// Only the browser events' wiring is checked here: the sessions are a stand-in, and the panels' port is not opened.
const sessions = vi.hoisted(() => ({ navigated: vi.fn(), pageLoaded: vi.fn(), toolsChanged: vi.fn(), settingsChanged: vi.fn() }));
vi.mock('@/lib/agent/agent-sessions', () => ({ createAgentSessions: () => sessions }));
vi.mock('@/lib/messaging/port-channel', () => ({ acceptNamedChannels: vi.fn() }));
Object.assign(fakeBrowser.tabs, { onReplaced: { addListener: () => {} } });

// Once: the fake browser's navigation events keep their listeners through a reset.
beforeAll(() => setupAgentSessions({} as TraceRecorder, {} as TabDrivers));
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
});
