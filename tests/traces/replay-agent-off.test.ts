import { describe, expect, it } from 'vitest';
import type { ReplayServerMessage } from '@/lib/traces/trace-protocol';
import { createTraceClient } from '@/lib/traces/trace-client';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import { recordShopRun } from './support/record-run';
import { createShopPage, type ShopPage } from './support/shop-page';
import { createTestService } from './support/test-service';
import { openTestStore } from './support/trace-stores';

/** A test store holding one recorded run on the shop, `run-1`. */
async function storeWithShopRun() {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await recordShopRun({ recorder, runId: 'run-1', startedAt: Date.now() - 60_000 });
  await recorder.flush();
  return store;
}

describe('replay: the agent turned off while a call waits', () => {
  it('runs no call of a framed tool whose site the person turned the agent off on while its confirmation waited', async () => {
    const store = await storeWithShopRun();
    const page = createShopPage();
    const ran: string[] = [];
    const framed: ShopPage = {
      ...page,
      tools: () => page.tools().map((tool) => (tool.name === 'add_to_cart' ? { ...tool, origin: 'https://cart.example', frameId: 3 } : tool)),
      executeTool: async (name, args) => (ran.push(name), page.executeTool(name, args)),
    };
    const disabledSites: string[] = [];
    const { service, openReplayPort } = createTestService(store, new Map([[7, framed]]), {
      consent: async () => ({ askEveryCall: false, disabledSites: [...disabledSites] }),
    });
    const client = createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort });
    const done = await new Promise<ReplayServerMessage | 'lost'>((resolve) => {
      const replay = client.replay('run-1', 7, {
        onMessage: (message) => {
          if (message.type === 'confirm-request') {
            // Meanwhile, in the options: the agent is turned off on the frame's site. Then "Allow".
            disabledSites.push('https://cart.example');
            replay.confirm(message.call.callId, true);
          }
          if (message.type === 'done' || message.type === 'failed') resolve(message);
        },
        onLost: () => resolve('lost'),
      });
    });
    expect(ran).not.toContain('add_to_cart');
    expect(done).toMatchObject({ type: 'failed', error: { message: expect.stringContaining('turned off on https://cart.example') } });
  });
});

describe('replay: a sandboxed page', () => {
  it('names a sandboxed page by the site of its address, so the tab list offers it by that site and the agent off there refuses the replay', async () => {
    const store = await storeWithShopRun();
    const page = createShopPage();
    const ran: string[] = [];
    // The shop's page served sandboxed (a CSP `sandbox` header): its origin is opaque.
    const sandboxed: ShopPage = { ...page, origin: 'null', executeTool: async (name, args) => (ran.push(name), page.executeTool(name, args)) };
    const { service, openReplayPort } = createTestService(store, new Map([[7, sandboxed]]), {
      consent: async () => ({ askEveryCall: false, disabledSites: ['https://shop.example'] }),
    });
    const client = createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort });
    expect((await client.replayTabs()).map((tab) => tab.origin)).toEqual(['https://shop.example']);
    const done = await new Promise<ReplayServerMessage | 'lost'>((resolve) => {
      client.replay('run-1', 7, {
        onMessage: (message) => (message.type === 'done' || message.type === 'failed') && resolve(message),
        onLost: () => resolve('lost'),
      });
    });
    expect(ran).toEqual([]);
    expect(done).toMatchObject({ type: 'failed', error: { message: 'The agent is off on https://shop.example, so nothing is replayed there. Turn it back on in the extension\'s options.' } });
  });
});
