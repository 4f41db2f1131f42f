import { describe, expect, it } from 'vitest';
import { fitToolReplies, leftOutToolOutput, resultRoom } from '../../lib/local-agent/fit-tool-replies';
import { estimateTokens, messageFrameTokens } from '../../lib/local-agent/estimate-tokens';

const message = (role: 'user' | 'assistant', content: string) => ({ role, content });

describe('fitToolReplies', () => {
  const run = [
    message('user', 'compare the three mugs'),
    message('assistant', 'call 1'),
    message('user', 'result 1 '.repeat(400)),
    message('assistant', 'call 2'),
    message('user', 'result 2 '.repeat(400)),
    message('assistant', 'call 3'),
    message('user', 'result 3 '.repeat(400)),
  ];
  const replies = [2, 4, 6];

  it('leaves the run whole while it fits', () => {
    expect(fitToolReplies(run, replies, 100_000)).toEqual(run);
  });

  it('puts a note for the oldest results first, never for the latest, and leaves the run itself as it was', () => {
    const fitted = fitToolReplies(run, replies, 3_500);
    expect(fitted.map((each) => each.content.slice(0, 8))).toEqual(['compare ', 'call 1', leftOutToolOutput.slice(0, 8), 'call 2', 'result 2', 'call 3', 'result 3']);
    expect(fitToolReplies(run, replies, 10).at(-1)?.content).toBe(run.at(-1)!.content);
    expect(run[2]!.content.startsWith('result 1')).toBe(true);
  });

  it('counts text that is not ASCII as a token a character: 2,000 characters of Chinese do not fit in 1,500 tokens', () => {
    const chinese = [message('user', '比较价格'), message('assistant', 'call 1'), message('user', '价'.repeat(2_000)), message('assistant', 'call 2'), message('user', '格')];
    expect(fitToolReplies(chinese, [2, 4], 1_500)[2]!.content).toBe(leftOutToolOutput);
    expect(fitToolReplies(chinese, [2, 4], 2_100)).toEqual(chinese);
  });
});

describe('resultRoom', () => {
  const run = [message('user', 'compare the mugs'), message('assistant', 'call 1'), message('user', 'result 1 '.repeat(400)), message('assistant', 'call 2')];

  it('is what the run leaves of the room, counting the earlier results as the notes they may become and every message with its frame', () => {
    const used = [estimateTokens('compare the mugs'), estimateTokens('call 1'), estimateTokens(leftOutToolOutput), estimateTokens('call 2')].reduce((sum, tokens) => sum + tokens + messageFrameTokens, 0);
    expect(resultRoom(run, [2], 2_000)).toBe(2_000 - used - messageFrameTokens);
    expect(resultRoom(run, [2], Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});
