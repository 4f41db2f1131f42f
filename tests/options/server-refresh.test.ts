import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { Failure } from '../../lib/engines/describe-failure';
import { createServerAsks } from '../../components/options/server-asks';
import type { ServerState } from '../../components/options/server-connection';
import { createServerRefresh } from '../../components/options/server-reconnect';
import { EngineError } from '../../lib/engines/engine';
import { defaultSettings, type Settings } from '../../lib/settings';

/** A connection to a server that answered two models, whose next answer `answer` gives. */
function connected(answer: () => Promise<string[]>, settings: Partial<Settings> = {}) {
  const parts = {
    settings: signal<Settings | undefined>({ ...defaultSettings, engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1', ...settings }),
    models: signal<readonly string[]>(['qwen3:1.7b', 'llama3.2:3b']),
    state: signal<ServerState>('connected'),
    failure: signal<Failure | undefined>(undefined),
    asks: createServerAsks(),
    listModels: answer,
  };
  return { ...parts, refresh: createServerRefresh(parts) };
}

describe("the server connection's refresh, back on the options page", () => {
  it('says a server that stopped answering, as when the page opens', async () => {
    const down = new EngineError('server-down', 'No server answers at http://localhost:11434/v1.', 'Start your local server.');
    const connection = connected(() => Promise.reject(down));
    await connection.refresh();
    expect(connection.state.value).toBe('idle');
    expect(connection.failure.value).toEqual({ message: down.message, hint: down.hint, unprompted: true });
  });

  it('gives way to a Connect pressed while it asked, and asks nothing where no server is connected', async () => {
    let answer: (models: string[]) => void = () => {};
    const connection = connected(() => new Promise((resolve) => (answer = resolve)));
    const asked = connection.refresh();
    connection.asks.next();
    answer(['other-model']);
    await asked;
    expect(connection.models.value).toEqual(['qwen3:1.7b', 'llama3.2:3b']);

    let calls = 0;
    const webllm = connected(async () => ((calls += 1), []), { engine: 'webllm' });
    await webllm.refresh();
    expect(calls).toBe(0);
  });
});
