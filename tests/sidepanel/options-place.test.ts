import { describe, expect, it } from 'vitest';
import { agentOffNotice, noCallWorkedNotice, noticeFor, thinkingCutOffNotice } from '../../lib/agent/turn-notices';
import { contextFull, replyCutOff, type EngineError } from '../../lib/engines/engine';
import { serverDown, serverRefused } from '../../lib/engines/openai/server-errors';
import { loadFailure } from '../../lib/engines/webllm/webllm-errors';
import { optionsPlaceFor, optionsPlaceIn } from '../../lib/sidepanel/options-place';

/** An engine's failure as the panel words it: what went wrong, then what to do. */
const said = (error: EngineError) => `The model stopped with an error: ${error.message} ${error.hint}`;
const refused = (status: number, model?: string) => serverRefused('http://127.0.0.1:8080/v1', new Response('{}', { status }), model);
const cutOff = { name: 'EngineError', code: 'reply-cut-off', message: "The model's reply reached 1,024 tokens and was cut off." };

describe('optionsPlaceFor: the setting a notice sends the person to change', () => {
  it('is the limit a stopped run names', () => {
    expect(optionsPlaceFor(noticeFor('max-steps', '8')!)).toBe('max-steps');
    expect(optionsPlaceFor(noticeFor('tool-timeout', 'the tool "search" did not answer within 30 s')!)).toBe('tool-timeout');
    expect(optionsPlaceFor(said(replyCutOff('1,024 tokens')))).toBe('reply-tokens');
    expect(optionsPlaceFor(said(contextFull('Qwen3 1.7B', 4_096)))).toBe('tool-output');
  });

  it('is the nearer of two ways where the sentence offers both', () => {
    const thought = thinkingCutOffNotice({ finishReason: 'error', text: '', error: cutOff }, '<think>Still');
    expect(thought?.notice).toContain('raise "Longest reply" in the options, or pick a model there');
    expect(optionsPlaceFor(thought!.notice)).toBe('reply-tokens');
  });

  it('is the model, the server\'s address or its key, as the engine\'s failure says', async () => {
    expect(optionsPlaceFor(noCallWorkedNotice('8'))).toBe('model');
    expect(optionsPlaceFor(said(await refused(404, 'qwen3:8b')))).toBe('model');
    expect(optionsPlaceFor(said(serverDown('http://localhost:11434/v1')))).toBe('server-address');
    expect(optionsPlaceFor(said(await refused(404)))).toBe('server-address');
    expect(optionsPlaceFor(said(await refused(401)))).toBe('server-key');
  });

  it('is the engine, the stored models or the sites where WebLLM\'s load or the site says so', () => {
    const context = { label: 'Qwen3 1.7B (q4f16)', wasCached: false };
    expect(optionsPlaceFor(said(loadFailure(Object.assign(new Error('No compatible GPU found.'), { name: 'WebGPUNotFoundError' }), context)))).toBe('engine');
    expect(optionsPlaceFor(said(loadFailure(new DOMException('The quota has been exceeded.', 'QuotaExceededError'), context)))).toBe('models-stored');
    expect(optionsPlaceFor(said(loadFailure(Object.assign(new Error('Lacks shader-f16.'), { name: 'ShaderF16SupportError' }), context)))).toBe('model');
    expect(optionsPlaceFor(agentOffNotice('https://shop.example'))).toBe('sites');
    // A stored copy that would not load: its first remedy is to delete it there.
    expect(optionsPlaceFor(said(loadFailure(new Error('Cache entry is corrupt.'), { ...context, wasCached: true })))).toBe('models-stored');
  });

  it('is none where the notice does not send the person to the options', () => {
    expect(optionsPlaceFor(noticeFor('navigated')!)).toBeUndefined();
    expect(optionsPlaceFor(noticeFor('repeated-call')!)).toBeUndefined();
    // Not a model: the words name no setting this page has by that name.
    expect(optionsPlaceFor('Pick a local server in the options.')).toBeUndefined();
    // A word of the error itself ("address") is not what the way out asks to change.
    expect(optionsPlaceFor('The server sent the request on to another address. Check the server\'s own log, then send your request again.')).toBeUndefined();
  });
});

describe('optionsPlaceIn: the place an options address names', () => {
  it('reads a known place after "#", and nothing else', () => {
    expect(optionsPlaceIn('#reply-tokens')).toBe('reply-tokens');
    expect(optionsPlaceIn('reply-tokens')).toBe('reply-tokens');
    expect(optionsPlaceIn('')).toBeUndefined();
    expect(optionsPlaceIn('#constructor')).toBeUndefined();
    expect(optionsPlaceIn('#<img src=x>')).toBeUndefined();
  });
});
