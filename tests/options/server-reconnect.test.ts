import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { Failure } from '@/lib/engines/describe-failure';
import { createServerAsks } from '@/components/options/server-asks';
import type { ServerState } from '@/components/options/server-connection';
import { createServerReconnect } from '@/components/options/server-reconnect';
import { defaultSettings, type Settings } from '@/lib/settings';

const stored: Settings = { ...defaultSettings, engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1' };

/** The quiet asking again, over a server whose answer the test gives when it likes. */
function reconnectOver() {
  const settings = signal<Settings | undefined>(stored);
  const models = signal<readonly string[]>([]);
  const state = signal<ServerState>('idle');
  const failure = signal<Failure | undefined>(undefined);
  const asks = createServerAsks();
  const asked: string[] = [];
  let answer: { resolve(models: string[]): void; reject(error: Error): void } | undefined;
  const listModels = (target: string) => {
    asked.push(target);
    return new Promise<string[]>((resolve, reject) => (answer = { resolve, reject }));
  };
  const reconnect = createServerReconnect({ settings, models, state, failure, asks, listModels });
  return { reconnect, settings, models, state, failure, asks, asked, answer: () => answer! };
}

describe('createServerReconnect: asking again the server set up before', () => {
  it('shows the models of the server that answers, and why when it does not', async () => {
    const answered = reconnectOver();
    const asking = answered.reconnect(stored);
    answered.answer().resolve(['qwen3:4b']);
    await asking;
    expect(answered.asked).toEqual(['http://localhost:11434/v1']);
    expect([answered.models.value, answered.state.value]).toEqual([['qwen3:4b'], 'connected']);

    const silent = reconnectOver();
    const failing = silent.reconnect(stored);
    silent.answer().reject(new Error('No server answers.'));
    await failing;
    expect(silent.state.value).toBe('idle');
    expect(silent.failure.value).toEqual({ message: 'No server answers.', unprompted: true });
  });

  it('asks nothing on another engine, or while a Connect is going on', async () => {
    const page = reconnectOver();
    await page.reconnect({ ...stored, engine: 'webllm' });
    page.state.value = 'connecting';
    await page.reconnect(stored);
    expect(page.asked).toEqual([]);
  });

  it('drops an answer, or a failure, that came after the address was edited or changed elsewhere', async () => {
    const edited = reconnectOver();
    const editedAsking = edited.reconnect(stored);
    edited.asks.next();
    edited.answer().resolve(['qwen3:4b']);
    await editedAsking;
    expect([edited.models.value, edited.state.value]).toEqual([[], 'idle']);

    const moved = reconnectOver();
    const movedAsking = moved.reconnect(stored);
    moved.settings.value = { ...stored, openaiBaseUrl: 'http://localhost:1234/v1' };
    moved.answer().reject(new Error('No server answers.'));
    await movedAsking;
    expect(moved.failure.value).toBeUndefined();
  });
});
