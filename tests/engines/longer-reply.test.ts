import { describe, expect, it } from 'vitest';
import { longerReply, replyCutOff, thinkingCutOff } from '@/lib/engines/engine';

describe('what a cut-off reply offers to make the next one longer', () => {
  it('offers a higher "Longest reply" while the setting is what held the reply', () => {
    expect(longerReply(1_024, 4_096)).toBe('raise');
    expect(longerReply(2_048, 4_096)).toBe('raise');
    expect(longerReply(8_192, undefined)).toBe('raise');
    // An engine made without the setting offers to raise it.
    expect(longerReply(undefined, 4_096)).toBe('raise');
    expect(replyCutOff('1,024 tokens').hint).toBe('Ask for something shorter, or for a long answer a part at a time; or raise "Longest reply" in the options.');
  });

  it('offers nothing there once the setting is at its highest', () => {
    expect(longerReply(16_384, undefined)).toBe('highest');
    expect(replyCutOff('16,384 tokens', false, 'highest').hint).toBe('Ask for something shorter, or for a long answer a part at a time.');
    expect(thinkingCutOff('highest').hint).toBe(
      'Ask for something simpler, or pick a model in the options that does not think first (or turn thinking off on the server that runs it).',
    );
  });

  it('says the model’s context set the limit where it kept the reply under the setting', () => {
    // A reply may take half a 4,096-token context: a setting above 2,048 is not what held it.
    expect(longerReply(4_096, 4_096)).toEqual({ context: 4_096 });
    expect(longerReply(16_384, 8_192)).toEqual({ context: 8_192 });
    expect(replyCutOff('2,048 tokens', false, { context: 4_096 }).hint).toBe(
      "Ask for something shorter, or for a long answer a part at a time: the model's 4,096-token context leaves a reply no more room.",
    );
    expect(thinkingCutOff({ context: 4_096 }).hint).toBe(
      "Ask for something simpler, or pick a model in the options that does not think first (or turn thinking off on the server that runs it): the model's 4,096-token context leaves a reply no more room.",
    );
  });
});
