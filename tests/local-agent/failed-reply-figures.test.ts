import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import { hermesFormat, runLocalAgent, type AgentEvent, type LanguageModel, type ModelChunk, type ModelUsage } from '@webmcp-agents/local-agent';

const search: ToolDescriptor = {
  name: 'search_products',
  description: 'Search the catalogue by a key word.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  annotations: { readOnlyHint: true },
};

const engineError = (code: string, message: string, contextTokens?: number) =>
  Object.assign(new Error(message), { name: 'EngineError', code, ...(contextTokens ? { contextTokens } : {}) });
const cutOff = () => engineError('reply-cut-off', "The model's reply reached 1,024 tokens and was cut off.");
const contextFull = () => engineError('context-full', 'This conversation no longer fits in the context of the model.');
// Earlier turns the prompt can be made smaller by: its older half is left out when the model finds it too long.
const history = Array.from({ length: 4 }, (_, index) => [
  { role: 'user' as const, content: `what about mug ${index}?` },
  { role: 'assistant' as const, content: `Mug ${index} is blue, holds 350 ml and costs 12 USD. `.repeat(12) },
]).flat();

/** One reply as an engine streams it: its text, then its figures, then the error it ends with, if any. */
interface Attempt {
  text: string;
  usage: ModelUsage;
  error?: Error;
}

/** An engine that answers each prompt sent with the next attempt, as WebLLM and a server do: figures before the error. */
function scriptedModel(attempts: Attempt[]): LanguageModel {
  return {
    async *stream(): AsyncGenerator<ModelChunk> {
      const attempt = attempts.shift()!;
      yield { type: 'text-delta', text: attempt.text };
      yield { type: 'usage', usage: attempt.usage };
      if (attempt.error) throw attempt.error;
    },
  };
}

async function run(attempts: Attempt[]) {
  const events: AgentEvent[] = [];
  const result = await runLocalAgent({
    request: 'find a mug',
    model: scriptedModel(attempts),
    format: hermesFormat,
    contextTokens: 4_096,
    history,
    getTools: () => [search],
    executeTool: async () => ({ text: 'enamel-mug' }),
    onEvent: (event) => void events.push(event),
  });
  return { result, events, stepEnds: events.filter((event) => event.type === 'step-end') };
}

describe('the figures of a reply its engine ended with an error', () => {
  it('end its step all the same, unparsed, and the run ends with the engine\'s own error', async () => {
    const { result, events, stepEnds } = await run([{ text: 'Mugs are ', usage: { completionTokens: 1_024, decodeTokensPerSecond: 31.5 }, error: cutOff() }]);
    expect(result).toMatchObject({ finishReason: 'error', error: { code: 'reply-cut-off', message: "The model's reply reached 1,024 tokens and was cut off." } });
    expect(stepEnds).toEqual([{ type: 'step-end', step: 1, raw: 'Mugs are ', usage: { completionTokens: 1_024, decodeTokensPerSecond: 31.5 }, modelMs: expect.any(Number), failed: true }]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
  });

  it('are those of the prompt sent again smaller, never the refused one\'s as well', async () => {
    const refused: Attempt = { text: '<tool_call>{"name": "search_pro', usage: { promptTokens: 3_900, completionTokens: 140 }, error: contextFull() };
    const answered = await run([refused, { text: 'The enamel mug.', usage: { promptTokens: 1_500, completionTokens: 5 } }]);
    expect(answered.result.finishReason).toBe('answer');
    expect(answered.events.filter((event) => event.type === 'step-start')).toMatchObject([{ step: 1 }, { step: 1, refits: 1 }]);
    expect(answered.stepEnds).toHaveLength(1);
    expect(answered.stepEnds[0]).toMatchObject({ usage: { promptTokens: 1_500, completionTokens: 5 } });

    const cutAgain = await run([{ ...refused, error: contextFull() }, { text: 'The enamel', usage: { promptTokens: 1_500, completionTokens: 1_024 }, error: cutOff() }]);
    expect(cutAgain.result).toMatchObject({ finishReason: 'error', error: { code: 'reply-cut-off' } });
    expect(cutAgain.stepEnds).toEqual([expect.objectContaining({ failed: true, raw: 'The enamel', usage: { promptTokens: 1_500, completionTokens: 1_024 } })]);
  });

  it('are told of a run the person stopped as a stopped step, with the pieces it streamed until then', async () => {
    const stop = new AbortController();
    const events: AgentEvent[] = [];
    const model: LanguageModel = {
      async *stream() {
        yield { type: 'text-delta', text: 'Mugs are ' };
        stop.abort();
        yield { type: 'usage', usage: { completionTokens: 3 } };
      },
    };
    const result = await runLocalAgent({ request: 'find a mug', model, format: hermesFormat, signal: stop.signal, getTools: () => [search], executeTool: async () => ({ text: '' }), onEvent: (event) => void events.push(event) });
    expect(result.finishReason).toBe('aborted');
    expect(events.filter((event) => event.type === 'step-end')).toEqual([
      { type: 'step-end', step: 1, raw: 'Mugs are ', usage: { completionTokens: 1 }, modelMs: expect.any(Number), stopped: true },
    ]);
  });
});
