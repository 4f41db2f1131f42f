import { describe, expect, it } from 'vitest';
import type { ModelLoadNews } from '../../lib/agent/model-load-port';
import { serveModelStatus } from '../../lib/agent/serve-model-status';
import type { EngineStatus } from '../../lib/agent/session-state';
import type { Channel } from '../../lib/messaging/port-channel';

const idle: EngineStatus = { engineId: 'webllm', engineLabel: 'WebLLM', model: 'Qwen3-1.7B-q4f32_1-MLC', state: 'idle' };

/** The engine's status as the background holds it, changed by the test as a side panel's request would. */
function engine() {
  let status = idle;
  const watchers = new Set<() => void>();
  return {
    followed: { status: () => status, watchStatus: (watcher: () => void) => (watchers.add(watcher), () => void watchers.delete(watcher)) },
    change(next: Partial<EngineStatus>) {
      status = { ...status, ...next };
      watchers.forEach((watcher) => watcher());
    },
    watchers,
  };
}

/** The options page's end of the port. */
function page() {
  const heard: ModelLoadNews[] = [];
  const gone: (() => void)[] = [];
  const channel: Channel<ModelLoadNews, never> = {
    post: (news) => void heard.push(news),
    onMessage: () => {},
    onDisconnect: (listener) => void gone.push(listener),
    disconnect: () => {},
  };
  return { channel, heard, closes: () => gone.forEach((listener) => listener()) };
}

describe("the options page's following of the engine", () => {
  it('tells the status at once, then each change the page shows, not each piece of a reply', () => {
    const { followed, change } = engine();
    const options = page();
    serveModelStatus(options.channel, followed);
    change({ state: 'loading', progress: 0.1, progressText: 'Downloading: 10%' });
    change({ state: 'loading', progress: 0.1, progressText: 'Downloading: 10%' });
    change({ state: 'ready', progress: undefined, progressText: undefined });
    change({ state: 'generating', tokensPerSecond: 12 });
    change({ state: 'generating', tokensPerSecond: 14 });
    expect(options.heard.map((news) => news.type === 'status' && news.status.state)).toEqual(['idle', 'loading', 'ready', 'generating']);
  });

  it('stops following as the page closes its port', () => {
    const { followed, change, watchers } = engine();
    const options = page();
    serveModelStatus(options.channel, followed);
    options.closes();
    change({ state: 'loading', progress: 0 });
    expect(options.heard).toHaveLength(1);
    expect(watchers.size).toBe(0);
  });
});
