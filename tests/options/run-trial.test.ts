import { describe, expect, it } from 'vitest';
import { hermesFormat, type LanguageModel } from '@webmcp-agents/local-agent';
import type { Engine } from '@/lib/engines/engine';
import { runTrial, type Trial } from '@/lib/engines/run-trial';

/** An engine whose reply comes in these pieces. */
function engineReplying(pieces: readonly string[]): Engine {
  const model = {
    async *stream() {
      for (const text of pieces) yield { type: 'text-delta', text };
    },
  } as unknown as LanguageModel;
  return { id: 'openai', modelId: 'qwen3', format: hermesFormat, model, load: async () => {} } as unknown as Engine;
}

async function trialsOf(pieces: readonly string[]): Promise<Trial[]> {
  const seen: Trial[] = [];
  await runTrial(engineReplying(pieces), (trial) => seen.push(trial), { signal: new AbortController().signal });
  return seen;
}

describe('Try it: one short reply, shown as the side panel shows prose', () => {
  it('says the model is thinking while only its thoughts come, then shows the answer alone', async () => {
    const seen = await trialsOf(['<think>', 'A greeting, short.', '</think>', 'Hello', ' there!']);
    expect(seen.some((trial) => trial.running && trial.thinking && trial.reply === '')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ running: false, thinking: false, reply: 'Hello there!' });
    expect(seen.at(-1)?.failure).toBeUndefined();
  });

  it("does not say the model is thinking while a call a server streams apart comes in pieces the engine holds", async () => {
    const seen = await trialsOf(['', '', '', '<tool_call>{"name": "greet", "arguments": {}}</tool_call>']);
    expect(seen.some((trial) => trial.thinking)).toBe(false);
  });

  it('says the model is thinking where a server sends its thoughts apart from the reply, and calls it slow, not silent, at the time limit', async () => {
    const model = {
      async *stream({ signal }: { signal: AbortSignal }) {
        yield { type: 'thinking' };
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    } as unknown as LanguageModel;
    const engine = { id: 'openai', modelId: 'gpt-oss:20b', format: hermesFormat, model, load: async () => {} } as unknown as Engine;
    const seen: Trial[] = [];
    await runTrial(engine, (trial) => seen.push(trial), { signal: new AbortController().signal, replyTimeoutMs: 100 });
    expect(seen.some((trial) => trial.running && trial.thinking)).toBe(true);
    expect(seen.at(-1)?.failure?.message).toBe('The reply took longer than 0.1 seconds, so it was stopped there.');
  });

  it('calls a model that thought past the time limit slow, not silent', async () => {
    const model = {
      async *stream({ signal }: { signal: AbortSignal }) {
        yield { type: 'text-delta', text: '<think>Let me think about greetings.' };
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    } as unknown as LanguageModel;
    const engine = { id: 'openai', modelId: 'qwen3', format: hermesFormat, model, load: async () => {} } as unknown as Engine;
    const seen: Trial[] = [];
    await runTrial(engine, (trial) => seen.push(trial), { signal: new AbortController().signal, replyTimeoutMs: 100 });
    expect(seen.at(-1)?.failure?.message).toBe('The reply took longer than 0.1 seconds, so it was stopped there.');
  });

  it('fails in words where the reply had none for the person', async () => {
    for (const pieces of [[], [' ', '\n'], ['<think>Only thoughts.</think>'], ['<tool_call>{"name": "greet", "arguments": {}}</tool_call>']]) {
      const last = (await trialsOf(pieces)).at(-1);
      expect(last?.failure?.message).toBe('The model answered, but with no words for the person: its reply was empty, or only thoughts or a tool call.');
    }
  });
});
