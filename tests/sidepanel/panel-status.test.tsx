// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { mountPanel, type MountedPanel } from './mount-panel';
import type { Turn } from '@/lib/agent/session-state';
import { engineStatus, sessionState, tabId, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => {
  panel?.unmount();
  vi.restoreAllMocks();
  fakeBrowser.reset();
});

describe('the status line', () => {
  it('names the engine and the model', async () => {
    panel = await mountPanel();
    const status = panel.find('status-line');
    expect(status?.textContent).toContain('WebLLM');
    expect(status?.textContent).toContain('Qwen3-1.7B-q4f16_1');
    expect(status?.textContent).toContain('Ready');
  });

  it('shows loading progress with a percentage', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'loading', progress: 0.424, progressText: 'Fetching shard 3 of 7' }) });
    const progress = panel.find('progress') as HTMLProgressElement;
    expect(progress.value).toBeCloseTo(0.424);
    expect(panel.find('status-line')?.textContent).toContain('42%');
    expect(panel.find('status-line')?.textContent).toContain('Fetching shard 3 of 7');

    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating', tokensPerSecond: 23.46 }) });
    expect(panel.find('progress')).toBeNull();
    expect(panel.find('status-line')?.textContent).toContain('23.5 tokens/s');
  });

  it('shows a connection to a server as under way, with no share done and no percentage', async () => {
    const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b' };
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'loading', progressText: 'Connecting to 127.0.0.1:8080…' }) });
    const progress = panel.find('progress') as HTMLProgressElement;
    // No value: the bar says something goes on, not how far it is.
    expect(progress.hasAttribute('value')).toBe(false);
    expect(progress.getAttribute('aria-label')).toBe('Connecting to the server');
    expect(panel.find('status-line')?.textContent).toContain('Connecting to 127.0.0.1:8080…');
    expect(panel.find('status-line')?.textContent).not.toMatch(/%|Loading the model/);
  });

  it('says a reply waits for the reply in another tab, with no speed, until its turn comes', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating', progressText: 'Waiting for the reply in another tab…' }) });
    expect(panel.find('status-line')?.textContent).toContain('Waiting for the reply in another tab…');
    expect(panel.find('status-line')?.textContent).not.toContain('Generating');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating' }) });
    expect(panel.find('status-line')?.textContent).toContain('Generating');
    expect(panel.find('status-line')?.textContent).not.toContain('Waiting');
  });

  it("counts the wait for a server's first word in seconds, then says why it may take minutes, and speaks of generating once words come", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      vi.setSystemTime(100_000);
      panel = await mountPanel({ turns: [turn()], running: true });
      const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b', tokensPerSecond: 21.2 };
      await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: 100_000 }) });
      const status = () => panel!.find('status-line')?.textContent ?? '';
      expect(status()).toContain('Waiting for the server…');
      // Not the last reply's speed, nor "Generating": nothing is being written yet.
      expect(status()).not.toMatch(/Generating|tokens\/s/);
      await vi.advanceTimersByTimeAsync(12_000);
      expect(status()).toContain('Waiting for the server · 12 s');
      expect(status()).not.toContain('loading the model');
      await vi.advanceTimersByTimeAsync(113_000);
      expect(status()).toContain('Waiting for the server · 2 min 5 s');
      expect(status()).toContain('It may be loading the model or reading a long prompt; Stop gives up.');
      await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating' }) });
      expect(status()).toContain('21.2 tokens/s');
      expect(status()).not.toContain('Waiting');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a model that only thinks so far as thinking, without the explanation of a silent server', async () => {
    const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b' };
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', firstWordSince: Date.now() - 20_400, thinking: true }) });
    const status = panel.find('status-line')?.textContent ?? '';
    expect(status).toContain('Thinking · 20 s');
    expect(status).not.toMatch(/Waiting for the server|loading the model|Generating/);
  });

  it('counts the silence of a reply that had begun and brings nothing more, rather than saying it generates', async () => {
    const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b', tokensPerSecond: 21.2 };
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...server, state: 'generating', quietSince: Date.now() - 12_400 }) });
    const status = panel.find('status-line')?.textContent ?? '';
    expect(status).toContain('Nothing new for 12 s');
    expect(status).toContain('The server may have stalled; Stop gives up.');
    expect(status).not.toMatch(/Generating|tokens\/s/);
  });

  it('says a model on this computer reads the prompt before its first word', async () => {
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating', firstWordSince: Date.now() - 3_400 }) });
    expect(panel.find('status-line')?.textContent).toContain('Reading the prompt · 3 s');
  });

  it("names the tab a request waits for, and offers to go there: the tab comes to the front, in a window brought forward", async () => {
    const otherWindow = (await fakeBrowser.windows.create({}))!;
    const other = await fakeBrowser.tabs.create({ windowId: otherWindow.id!, active: false });
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    const focus = vi.spyOn(fakeBrowser.windows, 'update');
    panel = await mountPanel({ turns: [turn()], running: true });
    expect(panel.find('go-to-waited-tab')).toBeNull();
    const waiting = engineStatus({ state: 'loading', progressText: 'Waiting for your answer in “Mug shop”, whose run must end first…', waitingForTab: other.id! });
    await panel.deliver({ type: 'engine', tabId, engine: waiting });
    expect(panel.find('status-line')?.textContent).toContain('Waiting for your answer in “Mug shop”, whose run must end first…');
    const goThere = panel.find('go-to-waited-tab')!;
    expect(goThere.textContent).toBe('Go to that tab');
    goThere.click();
    await vi.waitFor(() => expect(focus).toHaveBeenCalledWith(otherWindow.id, { focused: true }));
    expect(update).toHaveBeenCalledWith(other.id, { active: true });
    // The wait is over: nothing to go to.
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'generating' }) });
    expect(panel.find('go-to-waited-tab')).toBeNull();
  });

  it('opens the side panel on the tab it goes to, in the click itself, so the question waits on screen in another window', async () => {
    const otherWindow = (await fakeBrowser.windows.create({}))!;
    const other = await fakeBrowser.tabs.create({ windowId: otherWindow.id!, active: false });
    const open = vi.spyOn(fakeBrowser.sidePanel, 'open').mockResolvedValue(undefined);
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progressText: 'Waiting for your answer in “Mug shop”…', waitingForTab: other.id! }) });
    panel.find('go-to-waited-tab')!.click();
    // Before any await: Chrome opens a panel only while the click counts.
    expect(open).toHaveBeenCalledWith({ tabId: other.id });
    expect(open.mock.invocationCallOrder[0]).toBeLessThan(update.mock.invocationCallOrder[0]!);
    await vi.waitFor(() => expect(update).toHaveBeenCalledWith(other.id, { active: true }));
  });

  it('still brings the tab forward where Chrome will not open a panel there', async () => {
    const other = await fakeBrowser.tabs.create({ active: false });
    vi.spyOn(fakeBrowser.sidePanel, 'open').mockRejectedValue(new Error('`sidePanel.open()` may only be called in response to a user gesture.'));
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    panel = await mountPanel({ turns: [turn()], running: true });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progressText: 'Waiting for your answer in “Mug shop”…', waitingForTab: other.id! }) });
    panel.find('go-to-waited-tab')!.click();
    await vi.waitFor(() => expect(update).toHaveBeenCalledWith(other.id, { active: true }));
  });

  it('names a model of the catalogue as the options do, its id kept as the title', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'loading', model: 'Qwen3-0.6B-q4f32_1-MLC', progress: 0.1, progressText: 'Downloading Qwen3 0.6B (q4f32): 40 of 400 MB.' }) });
    const name = panel.container.querySelector('.status-model');
    expect(name?.textContent).toBe('Qwen3 0.6B (q4f32)');
    expect(name?.getAttribute('title')).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(panel.container.querySelector('.status-detail')?.textContent).toBe('Downloading Qwen3 0.6B (q4f32): 40 of 400 MB.');
  });

  it('says once a load has been quiet for a minute, in a region read out, offering Stop only where a run can stop', async () => {
    const loading = engineStatus({ state: 'loading', progress: 0.1, progressText: 'Downloading: 40 of 400 MB.' });
    panel = await mountPanel({ engine: loading, turns: [turn()], running: true });
    expect(panel.find('load-stalled')?.textContent).toBe('');
    await panel.deliver({ type: 'engine', tabId, engine: { ...loading, stalled: true } });
    const said = 'Nothing new has come for a minute. On a slow connection one part can take minutes; if this stays so, check your connection, or press Stop.';
    expect(panel.find('load-stalled')?.textContent).toBe(said);
    expect(panel.find('load-stalled')?.getAttribute('role')).toBe('status');
    expect(panel.container.querySelector('.status-detail')?.textContent).toBe(`Downloading: 40 of 400 MB. ${said}`);
    panel.unmount();
    // Another tab's load: this panel has nothing to stop.
    panel = await mountPanel({ engine: { ...loading, stalled: true } });
    expect(panel.find('load-stalled')?.textContent).toMatch(/check your connection\.$/);
  });

  it('says the model loads on the next request once one came, and waits for the person while a call does', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'idle' }), turns: [turn({ outcome: 'stopped', endedAt: 2_000 })] });
    expect(panel.find('status-line')?.textContent).toContain('Loads on your next request');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'idle', downloadMB: 400 }) });
    expect(panel.find('status-line')?.textContent).toContain('Downloads about 400 MB on your next request, once');
    panel.unmount();
    // A tool of the page runs for the request: the model waits for it, and the line says what runs.
    const running = turn({ items: [{ kind: 'tool', callId: '1.1', name: 'slow_search', arguments: {}, state: 'running' }] });
    panel = await mountPanel({ engine: engineStatus({ state: 'ready' }), turns: [running], running: true });
    expect(panel.find('status-line')?.textContent).toContain('Running slow_search');
    expect(panel.find('status-line')?.textContent).not.toContain('Ready');
    panel.unmount();
    // The first request, sent and not loading yet: it is still the first.
    panel = await mountPanel({ engine: engineStatus({ state: 'idle' }), turns: [turn()], running: true });
    expect(panel.find('status-line')?.textContent).toContain('Loads on your first request');
    panel.unmount();
    // A server's model is the server's to load: the panel connects to it.
    panel = await mountPanel({ engine: engineStatus({ state: 'idle', engineId: 'openai', engineLabel: 'Local server (127.0.0.1:8080)' }) });
    expect(panel.find('status-line')?.textContent).toContain('Connects on your first request');
    panel.unmount();
    const waiting = turn({ items: [{ kind: 'tool', callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'waiting' }] });
    panel = await mountPanel({ engine: engineStatus({ state: 'ready' }), turns: [waiting] });
    expect(panel.find('status-line')?.textContent).toContain('Waiting for you');
    expect(panel.find('status-line')?.textContent).not.toContain('Ready');
  });

  it("sends the person to the options' Download where Chrome's built-in model waits for their go-ahead, not to a first request that would fail", async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'idle', goAheadFirst: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Press Download in the options first');
    expect(panel.find('status-line')?.textContent).not.toContain('Loads on your');
    expect(panel.find('status-open-options')?.textContent).toBe('Open the options');
  });

  it('explains an engine that could not load', async () => {
    panel = await mountPanel({
      engine: engineStatus({ state: 'error', error: 'WebGPU is not available.', hint: 'Turn on hardware acceleration in chrome://settings/system.' }),
    });
    const error = panel.find('engine-error');
    expect(error?.textContent).toContain('The model could not load.');
    expect(error?.textContent).toContain('WebGPU is not available.');
    expect(error?.textContent).toContain('Turn on hardware acceleration');
  });
});

describe('an engine error no request of this panel ended with', () => {
  it('says to send a request, not to send "your request" again: the panel opening, the options or another tab began that load', async () => {
    panel = await mountPanel({
      engine: engineStatus({
        state: 'error',
        error: 'The download of Qwen3 0.6B (q4f32) failed.',
        hint: 'Check your connection, then send your request again. If it fails again, send your request again later.',
      }),
    });
    expect(panel.find('engine-error')?.textContent).toContain('Check your connection, then send a request. If it fails again, send a request later.');
  });
});

describe('an engine error shown again', () => {
  it('is announced once, not again when a tab switch brings the same error back', async () => {
    const failed = engineStatus({ state: 'error', error: 'WebGPU is not available.', hint: 'Turn on hardware acceleration.' });
    panel = await mountPanel({ engine: failed });
    expect(panel.find('engine-error')?.getAttribute('role')).toBe('alert');
    panel.model.selectTab(tabId + 1);
    await panel.deliver({ type: 'snapshot', state: sessionState({ tabId: tabId + 1, engine: failed }) });
    expect(panel.find('engine-error')?.textContent).toContain('WebGPU is not available.');
    expect(panel.find('engine-error')?.getAttribute('role')).toBeNull();
  });
});

describe('an engine the check said cannot run here', () => {
  it('is announced once: the load that then fails the same way is shown, not announced again', async () => {
    const words = { error: 'WebGPU is turned off.', hint: 'Turn on hardware acceleration.' };
    panel = await mountPanel({ engine: engineStatus({ state: 'error', errorDuring: 'check', ...words }) });
    expect(panel.find('engine-error')?.getAttribute('role')).toBe('alert');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progress: 0 }) });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'error', errorDuring: 'load', ...words }) });
    expect(panel.find('engine-error')?.textContent).toContain('The model could not load.');
    expect(panel.find('engine-error')?.getAttribute('role')).toBeNull();
    // Another try that fails again is news.
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'loading', progress: 0 }) });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'error', errorDuring: 'load', ...words }) });
    expect(panel.find('engine-error')?.getAttribute('role')).toBe('alert');
  });

  it('announces the same error again once a load in between succeeded', async () => {
    const words = { error: 'WebGPU is turned off.', hint: 'Turn on hardware acceleration.' };
    panel = await mountPanel({ engine: engineStatus({ state: 'error', errorDuring: 'check', ...words }) });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'ready' }) });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'error', errorDuring: 'reply', ...words }) });
    expect(panel.find('engine-error')?.getAttribute('role')).toBe('alert');
  });
});

describe('an engine that failed mid-reply', () => {
  it('says the reply stopped, not that the model could not load', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'error', error: 'The server went away.', errorDuring: 'reply' }) });
    expect(panel.find('engine-error')?.textContent).toContain('The model could not answer.');
    expect(panel.find('status-line')?.textContent).toContain('Failed while answering');
    expect(panel.find('status-line')?.textContent).not.toContain('Could not load');
  });
});

describe('an engine that failed before its reply began', () => {
  it('says it failed before answering, not while', async () => {
    panel = await mountPanel({ engine: engineStatus({ engineId: 'openai', engineLabel: 'Local server (127.0.0.1:8080)', state: 'error', error: 'The server did not start answering within 60 s.', errorDuring: 'reply', beforeFirstWord: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Failed before answering');
    expect(panel.find('status-line')?.textContent).not.toContain('while answering');
    expect(panel.find('engine-error')?.textContent).toContain('The model server could not answer.');
  });

  it('says it could not connect where the server stopped since the last request (found only as this one was sent)', async () => {
    panel = await mountPanel({ engine: engineStatus({ engineId: 'openai', engineLabel: 'Local server (127.0.0.1:8080)', state: 'error', error: 'No server answers at 127.0.0.1:8080.', errorDuring: 'reply', errorCode: 'server-down', beforeFirstWord: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Could not connect');
    // Gone between two replies of a run (a call ran meanwhile): it could not be connected to either.
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ engineId: 'openai', engineLabel: 'Local server (127.0.0.1:8080)', state: 'error', error: 'No server answers at 127.0.0.1:8080.', errorDuring: 'reply', errorCode: 'server-down', beforeReply: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Could not connect');
    expect(panel.find('status-line')?.textContent).not.toContain('Failed while answering');
    // Broken off in the middle of a reply: it failed while answering.
    const broke = 'The connection to the server at 127.0.0.1:8080 broke in the middle of a reply.';
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ engineId: 'openai', engineLabel: 'Local server (127.0.0.1:8080)', state: 'error', error: broke, errorDuring: 'reply', errorCode: 'server-down' }) });
    expect(panel.find('status-line')?.textContent).toContain('Failed while answering');
  });
});

describe('a model server that could not be used', () => {
  const server = { engineId: 'openai', engineLabel: 'Local server (OpenAI-compatible)', model: 'qwen3:1.7b' };
  const down = { error: 'No server answers at http://127.0.0.1:8080/v1.', hint: 'Start your local server, or correct its address in the options.' };
  const refused = { error: 'The server at 127.0.0.1:8080 asks for an API key, or refused the one given (HTTP 401).', hint: 'Check the API key in the options.' };
  const failedTurn = (id: string, words: { error: string; hint: string }) =>
    turn({ id, request: `ask ${id}`, outcome: 'error', notice: `Nothing was done. ${words.error} ${words.hint}`, loadFailed: true, endedAt: 2_000 });

  it('is said to be out of reach, not a model that could not load', async () => {
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'error', errorDuring: 'load', errorCode: 'server-down', ...down }) });
    expect(panel.find('engine-error')?.textContent).toContain('Could not connect to the model server.');
    expect(panel.find('status-line')?.textContent).toContain('Could not connect');
    expect(panel.container.textContent).not.toMatch(/could not load/i);
  });

  it('is said not to answer, not to be out of reach, where it took the connection and then said nothing in time', async () => {
    const silent = { error: 'The server at 127.0.0.1:8080 took the connection but did not answer within 10 seconds.', hint: 'It may be busy with another request, or still loading a model.' };
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'error', errorDuring: 'load', errorCode: 'server-silent', ...silent }) });
    expect(panel.find('engine-error')?.textContent).toContain('The model server did not answer.');
    expect(panel.find('status-line')?.textContent).toContain('No answer from the server');
    expect(panel.container.textContent).not.toMatch(/could not connect/i);
    panel.unmount();
    // A reply it never started.
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'error', errorDuring: 'reply', errorCode: 'server-silent', beforeFirstWord: true, ...silent }) });
    expect(panel.find('status-line')?.textContent).toContain('No answer from the server');
  });

  it('is said to refuse, not to be out of reach, where it answered: a key refused, a model it lacks', async () => {
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'error', errorDuring: 'load', errorCode: 'forbidden', ...refused }) });
    expect(panel.find('engine-error')?.textContent).toContain('The model server could not be used.');
    expect(panel.find('status-line')?.textContent).toContain('Could not use the server');
    expect(panel.container.textContent).not.toMatch(/could not (load|connect)/i);
  });

  it('leaves each request that failed with its own reason and remedy, said once, with the way to the options on the latest', async () => {
    panel = await mountPanel({ engine: engineStatus({ ...server, state: 'error', errorDuring: 'load', errorCode: 'forbidden', ...refused }), turns: [failedTurn('t1', down), failedTurn('t2', refused)] });
    const notices = [...panel.container.querySelectorAll('[data-testid=turn-notice]')].map((notice) => notice.textContent);
    expect(notices[0]).toContain(down.error);
    expect(notices[0]).toContain(down.hint);
    expect(notices[1]).toContain(refused.error);
    // The latest request says it: the box above would only repeat it.
    expect(panel.find('engine-error')).toBeNull();
    expect(panel.container.textContent?.split(refused.error)).toHaveLength(2);
    const latest = panel.container.querySelectorAll('[data-testid=turn-notice]')[1]!;
    expect(latest.querySelector('[data-testid=turn-open-options]')).not.toBeNull();
    expect(latest.querySelector('[data-testid=try-again]')).not.toBeNull();
  });
});

describe('an engine that failed in the request just made', () => {
  // A hint that does not itself send the person to the options: the button comes with the failure.
  const failed = { state: 'error' as const, errorDuring: 'reply' as const, error: 'The local server closed the connection.', hint: "Check the server's own log, then send your request again." };
  const failedTurn = () =>
    turn({ outcome: 'error', notice: `The model stopped with an error: ${failed.error} ${failed.hint}`, engineFailed: true, runId: 'run-1', endedAt: 2_000 });

  it('says it once, under the request, with the way to the options', async () => {
    const { fakeBrowser } = await import('wxt/testing/fake-browser');
    const opened = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue(undefined);
    // No options tab is open yet.
    const open = vi.spyOn(fakeBrowser.runtime, 'getContexts').mockResolvedValue([] as never);
    try {
      panel = await mountPanel({ engine: engineStatus(failed), turns: [failedTurn()] });
      expect(panel.find('engine-error')).toBeNull();
      expect(panel.container.textContent?.split(failed.error)).toHaveLength(2);
      expect(panel.find('turn-notice')?.textContent).toContain(failed.hint);
      panel.find('turn-open-options')!.click();
      await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    } finally {
      opened.mockRestore();
      open.mockRestore();
    }
  });

  it('is still shown above the conversation of a tab whose own last request did not fail', async () => {
    panel = await mountPanel({ engine: engineStatus(failed), turns: [turn({ outcome: 'answer', endedAt: 2_000 })] });
    expect(panel.find('engine-error')?.textContent).toContain(failed.error);
  });

  it('is gone once the next request is sent: that request says how it ends, and the failure before it was the last one\'s', async () => {
    panel = await mountPanel({ engine: engineStatus(failed), turns: [failedTurn(), turn({ id: 't2' })], running: true });
    expect(panel.find('engine-error')).toBeNull();
  });

  it('comes back above the conversation when the engine fails another way', async () => {
    panel = await mountPanel({ engine: engineStatus(failed), turns: [failedTurn()] });
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ ...failed, error: 'The GPU was lost.' }) });
    expect(panel.find('engine-error')?.textContent).toContain('The GPU was lost.');
  });
});

describe('a request whose model failed', () => {
  const loadError = engineStatus({ state: 'error', errorDuring: 'load', error: 'The model could not be downloaded.', hint: 'Check your connection and send your request again.' });
  const failedTurn = (overrides: Partial<Turn> = {}) =>
    turn({ request: 'add two mugs to the cart', outcome: 'error', notice: `Nothing was done. ${loadError.error} ${loadError.hint}`, loadFailed: true, endedAt: 2_000, ...overrides });

  it('sets its lead apart from the engine\'s words, as the banner above sets its title', async () => {
    panel = await mountPanel({ engine: loadError, turns: [failedTurn()] });
    const notice = panel.find('turn-notice')!;
    expect(notice.querySelector('strong')?.textContent).toBe('Nothing was done.');
    expect(notice.querySelector('p')?.textContent).toBe(`Nothing was done. ${loadError.error} ${loadError.hint}`);
  });

  it('offers to try it again: the same request goes out, from a button named for what it does', async () => {
    panel = await mountPanel({ engine: loadError, turns: [failedTurn()] });
    const button = panel.find('turn')?.querySelector<HTMLButtonElement>('[data-testid=try-again]');
    expect(button?.tagName).toBe('BUTTON');
    expect(button?.textContent).toBe('Try again');
    expect(button?.disabled).toBe(false);
    // A screen reader hears which request it sends again.
    expect(document.getElementById(button!.getAttribute('aria-describedby')!)?.textContent).toBe('add two mugs to the cart');
    await panel.flush();
    button!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'add two mugs to the cart' });
    expect(document.activeElement).toBe(panel.find('chat-input'));
    // The run is under way: nothing more to try again.
    expect(panel.find('try-again')).toBeNull();
  });

  it('keeps a draft typed meanwhile in the request box', async () => {
    panel = await mountPanel({ engine: loadError, turns: [failedTurn()] });
    panel.model.setDraft('and a teapot');
    panel.find('try-again')!.click();
    await panel.flush();
    expect((panel.find('chat-input') as HTMLTextAreaElement).value).toBe('and a teapot');
  });

  it('offers it after an engine that failed mid-reply too, on the latest request only, and only where no tool ran yet', async () => {
    panel = await mountPanel({
      turns: [
        failedTurn({ id: 'a', loadFailed: undefined, engineFailed: true, notice: 'The model stopped with an error: the server went away.' }),
        failedTurn({ id: 'b', request: 'show my cart' }),
      ],
    });
    const [older, latest] = panel.findAll('turn');
    expect(older?.querySelector('[data-testid=try-again]')).toBeNull();
    expect(latest?.querySelector('[data-testid=try-again]')).not.toBeNull();
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [failedTurn({ loadFailed: undefined, engineFailed: true })] }) });
    expect(panel.find('try-again')).not.toBeNull();
    // A tool ran before the model failed: the same words would run it again.
    const added = { kind: 'tool' as const, callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'done' as const, result: 'Added.' };
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [failedTurn({ loadFailed: undefined, engineFailed: true, items: [added] })] }) });
    expect(panel.find('try-again')).toBeNull();
    // One the person declined did nothing.
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [failedTurn({ loadFailed: undefined, engineFailed: true, items: [{ ...added, state: 'declined', result: undefined }] })] }) });
    expect(panel.find('try-again')).not.toBeNull();
    // One the page says only reads (a search) changed nothing: running it again is as harmless.
    const searched = { kind: 'tool' as const, callId: '1.1', name: 'search_products', arguments: { query: 'mug' }, state: 'done' as const, result: '[]', readOnly: true as const };
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [failedTurn({ loadFailed: undefined, engineFailed: true, items: [searched] })] }) });
    expect(panel.find('try-again')).not.toBeNull();
  });

  it('offers it where the extension restarted mid-run, unless a call that may change the page reached it', async () => {
    const cutOff = (items: Turn['items'] = [], notice = 'This run was cut off when the extension restarted. Ask again to continue.') => turn({ outcome: 'interrupted', notice, items, endedAt: 2_000 });
    panel = await mountPanel({ turns: [cutOff()] });
    panel.find('try-again')!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'send', tabId, text: 'add two mugs to the cart' });
    const added = { kind: 'tool' as const, callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'unanswered' as const, result: 'The extension restarted before the page answered.' };
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [cutOff([added], 'This run was cut off when the extension restarted, after a call to "add_to_cart", which may change the page. Check the page before asking again.')] }) });
    expect(panel.find('turn-notice')?.textContent).toContain('Check the page before asking again.');
    expect(panel.find('try-again')).toBeNull();
  });

  it('offers it where the model gave no answer, as its notice asks, unless a tool ran before', async () => {
    const noAnswer = (items: Turn['items'] = []) =>
      turn({ outcome: 'error', notice: 'The model gave no answer: its reply was empty. Ask again, or pick another model in the options.', noAnswer: true, items, endedAt: 2_000 });
    panel = await mountPanel({ turns: [noAnswer()] });
    expect(panel.find('try-again')?.textContent).toBe('Try again');
    const added = { kind: 'tool' as const, callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'done' as const, result: 'Added.' };
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [noAnswer([added])] }) });
    expect(panel.find('try-again')).toBeNull();
  });

  it('offers it where the reply was cut off at its length limit, to press once that is raised, unless a tool ran before', async () => {
    const notice = 'The model\'s reply reached 1,024 tokens and was cut off. Ask for something shorter, or for a long answer a part at a time; or raise "Longest reply" in the options.';
    const cut = (items: Turn['items'] = []) => turn({ outcome: 'error', notice, cutOff: true, items, endedAt: 2_000 });
    panel = await mountPanel({ turns: [cut()] });
    expect(panel.find('try-again')?.textContent).toBe('Try again');
    expect(panel.find('turn-open-options')?.textContent).toBe('Open the options');
    const added = { kind: 'tool' as const, callId: '1.1', name: 'add_to_cart', arguments: { qty: 2 }, state: 'done' as const, result: 'Added.' };
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [cut([added])] }) });
    expect(panel.find('try-again')).toBeNull();
  });

  it('is not offered where the request itself went wrong, or where no request can go now', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'error', notice: 'Something went wrong: the extension could not store the chat.', endedAt: 2_000 })] });
    expect(panel.find('turn-notice')).not.toBeNull();
    expect(panel.find('try-again')).toBeNull();
    panel.unmount();
    // The engine the check found cannot run here: the way to the options is what helps.
    panel = await mountPanel({ engine: engineStatus({ state: 'error', errorDuring: 'check', error: 'WebGPU is turned off.' }), turns: [failedTurn()] });
    expect(panel.find('try-again')).toBeNull();
  });
});

describe('a request too long for the model', () => {
  const tooLong = (overrides: Partial<Turn> = {}) =>
    turn({
      request: 'Summarise this article: a very long one',
      outcome: 'error',
      notice: 'The model stopped with an error: Your request is too long for this model, about 3,500 tokens of the 2,048 it reads at once. Shorten it, or pick a model with more context in the options.',
      requestTooLong: true,
      endedAt: 2_000,
      ...overrides,
    });

  it('offers to put it back in the request box, in front of what was typed since, with the cursor at the end', async () => {
    panel = await mountPanel({ turns: [tooLong()] });
    panel.model.setDraft('and keep it short');
    await panel.flush();
    const button = panel.find('edit-request') as HTMLButtonElement;
    expect(button.textContent).toBe('Edit the request');
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe('Summarise this article: a very long one');
    button.click();
    await panel.flush();
    const box = panel.find('chat-input') as HTMLTextAreaElement;
    expect(box.value).toBe('Summarise this article: a very long one\nand keep it short');
    expect(document.activeElement).toBe(box);
    expect(box.selectionStart).toBe(box.value.length);
    // Pressed again, it does not write the request twice.
    button.click();
    await panel.flush();
    expect(box.value).toBe('Summarise this article: a very long one\nand keep it short');
    expect(panel.posted().filter((message) => (message as { type: string }).type === 'send')).toEqual([]);
  });

  it('is offered on the latest request only, and not for a conversation that grew too long', async () => {
    panel = await mountPanel({ turns: [tooLong({ id: 'a' }), tooLong({ id: 'b', requestTooLong: undefined })] });
    expect(panel.find('edit-request')).toBeNull();
    panel.unmount();
    panel = await mountPanel({ turns: [turn({ id: 'a', outcome: 'answer', endedAt: 1 }), tooLong({ id: 'b' })] });
    const [older, latest] = panel.findAll('turn');
    expect(older?.querySelector('[data-testid=edit-request]')).toBeNull();
    expect(latest?.querySelector('[data-testid=edit-request]')).not.toBeNull();
  });
});

describe('a notice whose remedy is a setting', () => {
  it('offers the way to the options, and a notice without one offers none', async () => {
    panel = await mountPanel({
      turns: [
        turn({ id: 'a', outcome: 'max-steps', notice: 'Stopped after 8 steps without finishing. Ask again, or raise "Maximum steps per request" in the options.', endedAt: 1 }),
        turn({ id: 'b', outcome: 'stopped', notice: 'Stopped.', endedAt: 2 }),
      ],
    });
    const [first, second] = panel.findAll('turn');
    expect(first?.querySelector('[data-testid=turn-open-options]')?.textContent).toBe('Open the options');
    expect(second?.querySelector('[data-testid=turn-open-options]')).toBeNull();
  });
});

describe('empty states', () => {
  it('says when a page offers no tools, and how authors add them', async () => {
    panel = await mountPanel({ toolCount: 0 });
    const note = panel.find('empty-no-tools');
    expect(note?.textContent).toContain('No tools on this page');
    expect(note?.textContent).toContain('document.modelContext.registerTool');
    expect(note?.textContent).toContain('<form toolname');
  });

  it('says a page whose every tool the agent refused offers tools it cannot use, and where to see why, not that it offers none', async () => {
    panel = await mountPanel({ toolCount: 0, toolsRefused: true });
    const note = panel.find('empty-no-tools');
    expect(note?.querySelector('h2')?.textContent).toBe('No tools the agent can use');
    // No count: the registry sums up a long list of refusals in a line ("(40 more)").
    expect(note?.textContent).toContain('This page offers tools, and the agent refused each one');
    expect(note?.textContent).toContain('the WebMCP panel in DevTools lists them, with why');
    expect(note?.textContent).not.toContain('offers none');
  });

  it('says a page without tools that is still loading may offer some once it has, rather than that it offers none', async () => {
    panel = await mountPanel({ toolCount: 0, pageLoading: true });
    expect(panel.find('empty-no-tools')?.textContent).toBe('This page is still loadingIts tools, if it offers any, appear here once it has loaded.');
    await panel.deliver({ type: 'snapshot', state: sessionState({ toolCount: 0 }) });
    expect(panel.find('empty-no-tools')?.textContent).toContain('No tools on this page');
  });

  it('asks for a reload where the extension cannot read the page, and reloads it on request', async () => {
    panel = await mountPanel({ toolCount: 0, pageReachable: false });
    expect(panel.find('empty-no-tools')).toBeNull();
    const note = panel.find('page-unreachable');
    expect(note?.textContent).toContain('Reload this page to use its tools');
    expect(note?.textContent).toContain('open before the extension was installed or updated');

    panel.find('reload-page')!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'reload-page', tabId });

    await panel.deliver({ type: 'snapshot', state: sessionState({ toolCount: 2, pageReachable: true }) });
    expect(panel.find('page-unreachable')).toBeNull();
    expect(panel.container.textContent).toContain('It offers 2 tools');
  });

  it('keeps the conversation above the reload note', async () => {
    panel = await mountPanel({ toolCount: 0, pageReachable: false, turns: [turn({ outcome: 'navigated' })] });
    const [firstTurn, note] = [panel.find('turn'), panel.find('page-unreachable')];
    expect(firstTurn && note && firstTurn.compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(panel.find('empty-no-tools')).toBeNull();
  });

  it('says above a chat that its first requests are no longer shown, where storage left them out, and where their runs are', async () => {
    panel = await mountPanel({ turns: [turn({ request: 'fifth', outcome: 'answer' })], turnsLeftOut: { count: 4, tracesKept: true } });
    const note = panel.find('turns-left-out-note');
    expect(note?.textContent).toBe("This chat's first 4 requests are no longer shown: the extension's chats grew past what the browser keeps for it, and the oldest requests of the largest chat were let go. Their runs are in Traces.");
    expect(note?.querySelector('a')?.getAttribute('href')).toBe('traces.html');
    expect(note!.compareDocumentPosition(panel.find('turn')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [turn({ outcome: 'answer' })], turnsLeftOut: { count: 1, tracesKept: false } }) });
    expect(panel.find('turns-left-out-note')?.textContent).toBe("This chat's first request is no longer shown: the extension's chats grew past what the browser keeps for it, and the oldest requests of the largest chat were let go.");
    await panel.deliver({ type: 'snapshot', state: sessionState({ turns: [] }) });
    expect(panel.find('turns-left-out-note')).toBeNull();
  });

  it('says where a chat went that an update of the extension ended, above the rest, until a request starts a new one', async () => {
    panel = await mountPanel({ toolCount: 0, pageReachable: false, chatEnded: { cause: 'update', tracesKept: true } });
    const note = panel.find('chat-ended-note');
    expect(note?.textContent).toBe("This tab's chat ended when the extension was updated, which clears every chat. Its runs are in Traces.");
    expect(note?.querySelector('a')?.getAttribute('href')).toBe('traces.html');
    expect(note!.compareDocumentPosition(panel.find('page-unreachable')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await panel.deliver({ type: 'snapshot', state: sessionState({ chatEnded: { cause: 'reload', tracesKept: false } }) });
    expect(panel.find('chat-ended-note')?.textContent).toBe("This tab's chat ended when the extension was reloaded, which clears every chat.");
    await panel.deliver({ type: 'snapshot', state: sessionState({ chatEnded: { cause: 'reload', tracesKept: false }, turns: [turn({ outcome: 'answer' })] }) });
    expect(panel.find('chat-ended-note')).toBeNull();
  });

  it('does not show the no-tools note on a page with tools', async () => {
    panel = await mountPanel({ toolCount: 4 });
    expect(panel.find('empty-no-tools')).toBeNull();
    expect(panel.container.textContent).toContain('It offers 4 tools');
  });
});

describe('how a turn ended', () => {
  it('shows the notice styled by outcome, and a trace link', async () => {
    panel = await mountPanel({
      turns: [turn({ outcome: 'max-steps', notice: 'Stopped after 8 steps.', runId: 'run 1/a', endedAt: 4_500 })],
    });
    const notice = panel.find('turn-notice');
    expect(notice?.textContent).toBe('Stopped after 8 steps.');
    expect(notice?.dataset.outcome).toBe('max-steps');
    expect(notice?.className).toContain('tone-warning');
    const trace = panel.find('trace-link') as HTMLAnchorElement;
    expect(trace.getAttribute('href')).toBe('traces.html?run=run%201%2Fa');
    expect(trace.target).toBe('_blank');
    expect(panel.find('turn')?.textContent).toContain('3.5 s');
  });

  it('words an outcome the background left without a notice', async () => {
    panel = await mountPanel({ turns: [turn({ outcome: 'stopped', runId: 'run-2' })] });
    expect(panel.find('turn-notice')?.textContent).toBe('Stopped.');
  });

  it('has no notice for a plain answer and no trace link while running', async () => {
    panel = await mountPanel({ turns: [turn({ id: 'a', outcome: 'answer' }), turn({ id: 'b', runId: 'run-3' })], running: true });
    expect(panel.find('turn-notice')).toBeNull();
    expect(panel.find('trace-link')).toBeNull();
    expect(panel.findAll('turn')).toHaveLength(2);
  });
});

describe('the way to the settings', () => {
  it('opens the options page from the header, and from a model that could not load', async () => {
    const { fakeBrowser } = await import('wxt/testing/fake-browser');
    const opened = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue(undefined);
    // No options tab is open yet.
    const open = vi.spyOn(fakeBrowser.runtime, 'getContexts').mockResolvedValue([] as never);
    const openedAt = vi.spyOn(fakeBrowser.tabs, 'create').mockResolvedValue({} as never);
    const hint = 'Update Chrome and your graphics driver, or pick another engine in the options.';
    const mounted = await mountPanel({ engine: engineStatus({ state: 'error', error: 'WebGPU found no usable GPU, so WebLLM cannot run here.', hint }) });
    try {
      mounted.find('open-options')!.click();
      await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
      // The hint names the setting to change: the page opens there.
      mounted.find('engine-error')!.querySelector('button')!.click();
      await vi.waitFor(() => expect(openedAt).toHaveBeenCalledWith({ url: expect.stringMatching(/\/options\.html#engine$/) }));
      expect(opened).toHaveBeenCalledTimes(1);
    } finally {
      mounted.unmount();
      opened.mockRestore();
      open.mockRestore();
      openedAt.mockRestore();
    }
  });
});

describe('the site the panel talks to', () => {
  it('is named by its host where secure, and with its scheme where not', async () => {
    panel = await mountPanel({ origin: 'https://shop.example', url: 'https://shop.example/mugs' });
    expect(panel.container.querySelector('h1')?.textContent).toBe('shop.example');
    await panel.deliver({ type: 'snapshot', state: sessionState({ origin: 'http://127.0.0.1:8080', url: 'http://127.0.0.1:8080/' }) });
    expect(panel.container.querySelector('h1')?.textContent).toBe('http://127.0.0.1:8080');
  });

  it('is named by its site on a page that offers no tools, by its address where it has none, so the person knows which tab it is', async () => {
    panel = await mountPanel({ origin: 'https://blog.example', url: 'https://blog.example/posts/1', toolCount: 0 });
    expect(panel.container.querySelector('h1')?.textContent).toBe('blog.example');
    expect(panel.find('empty-no-tools')).not.toBeNull();
    await panel.deliver({ type: 'snapshot', state: sessionState({ origin: 'http://127.0.0.1:8080', url: 'http://127.0.0.1:8080/404', toolCount: 0 }) });
    expect(panel.container.querySelector('h1')?.textContent).toBe('http://127.0.0.1:8080');
    await panel.deliver({ type: 'snapshot', state: sessionState({ origin: '', url: 'file:///home/ada/menu.html', toolCount: 0, pageReachable: false, closedPage: 'file' }) });
    expect(panel.container.querySelector('h1')?.textContent).toBe('file:///home/ada/menu.html');
  });
});

describe('a site where the agent is off', () => {
  it('says so with the way to turn it back on, and offers no request, suggestion or Send', async () => {
    panel = await mountPanel({ agentOff: true, agentOffBy: ['https://shop.example'], toolCount: 3, suggestions: ['Find mugs'] });
    expect(panel.find('agent-off')?.textContent).toContain('The agent is off on this site');
    expect(panel.find('agent-off')?.textContent).toContain('shop.example');
    expect(panel.find('agent-on')?.textContent).toBe('Turn the agent on here');
    expect(panel.container.textContent).not.toContain('Ask this page');
    expect(panel.findAll('suggestion')).toHaveLength(0);
    expect(panel.model.canSend.value).toBe(false);
    expect(panel.model.send('find mugs')).toBe(false);
    // No model is shown its tools here: they are not counted.
    expect(panel.container.querySelector('.site-detail')?.textContent).toBe('Agent off on this site');
  });
});

describe('a page the extension cannot read', () => {
  it('tells a page that did not load from one open before the extension came, and still offers its reload', async () => {
    panel = await mountPanel({ pageReachable: false, toolCount: 0, pageLoadFailed: true, url: 'https://shop.example/' });
    const note = panel.find('page-unreachable');
    expect(note?.textContent).toContain('This page did not load');
    expect(note?.textContent).toContain('Check the connection and the address, then reload it.');
    expect(note?.textContent).not.toContain('before the extension was installed');
    panel.find('reload-page')!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'reload-page', tabId });
  });

  it('says a tab Chrome put to sleep is asleep, and wakes it from here', async () => {
    panel = await mountPanel({ pageReachable: false, toolCount: 0, pageAsleep: true, url: 'https://shop.example/' });
    const note = panel.find('page-unreachable');
    expect(note?.dataset.closed).toBe('asleep');
    expect(note?.textContent).toContain('This tab is asleep');
    expect(note?.textContent).not.toContain('before the extension was installed');
    expect(panel.container.querySelector('.site-detail')?.textContent).toBe('Tab asleep');
    expect(panel.find('chat-input')?.getAttribute('placeholder')).toBe('This tab is asleep: wake it to ask');
    const wake = panel.find('reload-page')!;
    expect(wake.textContent).toBe('Wake the page');
    wake.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'reload-page', tabId });
  });

  it('offers a reload where one helps, and none on a browser page', async () => {
    panel = await mountPanel({ pageReachable: false, toolCount: 0 });
    expect(panel.find('page-unreachable')?.textContent).toContain('Reload this page to use its tools');
    expect(panel.find('reload-page')).not.toBeNull();
    panel.unmount();
    panel = await mountPanel({ pageReachable: false, toolCount: 0, closedPage: 'browser', url: 'chrome://newtab/' });
    expect(panel.container.querySelector('.site-detail')?.textContent).toBe('A browser page');
    expect(panel.find('page-unreachable')?.textContent).toContain('No extension can work on this page');
    expect(panel.find('reload-page')).toBeNull();
  });

  it('says nothing of an engine that cannot run on a browser page, where no request would run anyway', async () => {
    const cannotRun = engineStatus({ state: 'error', errorDuring: 'check', error: 'WebGPU is turned off.' });
    panel = await mountPanel({ pageReachable: false, toolCount: 0, closedPage: 'browser', url: 'chrome://newtab/', engine: cannotRun });
    expect(panel.find('page-unreachable')?.textContent).toContain('No extension can work on this page');
    expect(panel.find('engine-error')).toBeNull();
    expect(panel.container.textContent).not.toContain('cannot run on this computer');
    expect(panel.find('status-line')?.textContent).not.toContain('Cannot run here');
    // Back on a web page, it matters again.
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: cannotRun }) });
    expect(panel.find('engine-error')?.textContent).toContain('WebLLM cannot run on this computer.');
  });
});

describe('before the first request', () => {
  it('says what the first request downloads, and names the model', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'idle', model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 990 }) });
    expect(panel.find('status-line')?.textContent).toContain('Qwen3 1.7B (q4f16)');
    expect(panel.find('status-line')?.textContent).toContain('Downloads about 990 MB on your first request, once');
  });

  it('says replies will be slow where WebGPU runs on the processor, with the download or alone', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'idle', model: 'Qwen3-0.6B-q4f32_1-MLC', downloadMB: 400, slowGpu: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Downloads about 400 MB on your first request, once; WebGPU runs on the processor here, so replies will be slow');
    await panel.deliver({ type: 'engine', tabId, engine: engineStatus({ state: 'idle', model: 'Qwen3-0.6B-q4f32_1-MLC', slowGpu: true }) });
    expect(panel.find('status-line')?.textContent).toContain('Replies will be slow: WebGPU runs on the processor here');
  });

  it('says at once, by its name, that the engine cannot run on this computer: on a first visit nobody chose it', async () => {
    panel = await mountPanel({ engine: engineStatus({ state: 'error', errorDuring: 'check', error: 'WebGPU is turned off or found no usable GPU on this computer.' }) });
    expect(panel.find('engine-error')?.textContent).toContain('WebLLM cannot run on this computer.');
    expect(panel.container.textContent).not.toContain('chosen');
    expect(panel.find('status-line')?.textContent).toContain('Cannot run here');
    // The welcome does not promise a model that cannot run.
    expect(panel.container.querySelector('.empty-state')?.textContent).toBe(
      'Ask this pageIt offers 3 tools. Once an engine that runs here is picked in the options, a model uses them for you, and asks before anything with consequences.',
    );
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: engineStatus({ engineId: 'prompt-api', engineLabel: "Chrome's built-in model", state: 'error', errorDuring: 'check', error: 'It is not available.' }) }) });
    expect(panel.find('engine-error')?.textContent).toContain("Chrome's built-in model cannot run on this computer.");
    // Where the engine's words are the heading's, they are said once.
    const same = "Chrome's built-in model cannot run on this computer.";
    await panel.deliver({ type: 'snapshot', state: sessionState({ engine: engineStatus({ engineId: 'prompt-api', engineLabel: "Chrome's built-in model", state: 'error', errorDuring: 'check', error: same, hint: 'Chrome says it is unavailable here: pick another engine in the options.' }) }) });
    expect(panel.find('engine-error')?.textContent?.split(same)).toHaveLength(2);
  });
});

describe('a page without tools', () => {
  it('takes no request, which would load (or download) the model for nothing, until the page offers tools', async () => {
    panel = await mountPanel({ toolCount: 0 });
    expect(panel.model.canSend.value).toBe(false);
    expect(panel.find('chat-input')?.getAttribute('placeholder')).toBe('This page offers no tools to ask for');
    await panel.deliver({ type: 'snapshot', state: sessionState({ toolCount: 2 }) });
    expect(panel.model.canSend.value).toBe(true);
  });
});
