import { describe, expect, it } from 'vitest';
import { noCallWorkedNotice, noticeFor, thinkingCutOffNotice } from '../../lib/agent/turn-notices';

const thinking = '<think>\nThe person wants mugs. The enamel one is cheapest, but';
const notice =
  'The model used up its reply length while it was still thinking, so it gave no answer. Ask for something simpler, raise "Longest reply" in the options, or pick a model there that does not think first (or turn thinking off on the server that runs it).';

describe('thinkingCutOffNotice', () => {
  it('tells the person the model spent its reply thinking where the engine said it cut the reply off', () => {
    const cutOff = { name: 'EngineError', code: 'reply-cut-off', message: "The model's reply reached 1,024 tokens and was cut off." };
    expect(thinkingCutOffNotice({ finishReason: 'error', text: '', error: cutOff }, thinking)).toEqual({ notice, askAgain: false });
  });

  it('does not offer a higher "Longest reply" where one would not give the model more room', () => {
    const cutOff = { name: 'EngineError', code: 'reply-cut-off', message: "The model's reply reached 16,384 tokens and was cut off." };
    const atHighest = thinkingCutOffNotice({ finishReason: 'error', text: '', error: cutOff }, thinking, 'highest');
    expect(atHighest?.notice).toBe(
      'The model used up its reply length while it was still thinking, so it gave no answer. Ask for something simpler, or pick a model in the options that does not think first (or turn thinking off on the server that runs it).',
    );
    expect(thinkingCutOffNotice({ finishReason: 'error', text: '', error: cutOff }, thinking, { context: 4_096 })?.notice).not.toContain('Longest reply');
  });

  it('says a reply that ended of itself mid-thought stopped there, not that it used up its length, and that asking again may help', () => {
    expect(thinkingCutOffNotice({ finishReason: 'answer', text: '' }, thinking)).toEqual({
      notice:
        'The model stopped while it was still thinking, so it gave no answer. Ask again; if it happens again, pick a model in the options that does not think first (or turn thinking off on the server that runs it).',
      askAgain: true,
    });
  });

  it('says the same where the engine cut the reply off while the model thought apart from its text, which leaves the reply empty', () => {
    const thoughtApart = { name: 'EngineError', code: 'thinking-cut-off', message: 'The model used up its reply length while it was still thinking, so it gave no answer.' };
    expect(thinkingCutOffNotice({ finishReason: 'error', text: '', error: thoughtApart }, '')).toEqual({ notice, askAgain: false });
  });

  it('leaves every other ending to its own notice', () => {
    // Thoughts that ended, then nothing: an empty reply.
    expect(thinkingCutOffNotice({ finishReason: 'answer', text: '' }, '<think>\nDone.\n</think>\n')).toBeUndefined();
    // An answer after its thoughts, or a reply with no thoughts cut off.
    expect(thinkingCutOffNotice({ finishReason: 'answer', text: 'The enamel mug.' }, '<think>x</think>The enamel mug.')).toBeUndefined();
    const cutOff = { name: 'EngineError', code: 'reply-cut-off', message: 'cut off' };
    expect(thinkingCutOffNotice({ finishReason: 'error', text: '', error: cutOff }, 'The enamel mug is the best because')).toBeUndefined();
    expect(thinkingCutOffNotice({ finishReason: 'error', text: '', error: { name: 'EngineError', code: 'server-down', message: 'down' } }, thinking)).toBeUndefined();
  });
});

describe('the step-limit notices', () => {
  it('count one step as one step', () => {
    expect(noticeFor('max-steps', '1')).toBe('Stopped after 1 step without finishing. Ask again, or raise "Maximum steps per request" in the options.');
    expect(noCallWorkedNotice('1')).toBe("Stopped after 1 step: none of the model's tool calls worked. Try rephrasing the request, or pick another model in the options.");
    expect(noticeFor('max-steps', '8')).toMatch(/^Stopped after 8 steps without finishing\./);
    expect(noCallWorkedNotice()).toMatch(/^Stopped after the maximum number of steps: /);
  });
});
