import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@webmcp-agents/chat';
import { fitHistory } from '../../lib/agent/fit-history';
import { estimateTokens } from '../../lib/local-agent/estimate-tokens';

const exchange = (request: string, answer: string): ChatMessage[] => [
  { role: 'user', content: request },
  { role: 'assistant', content: answer },
];

describe('fitHistory', () => {
  it('keeps every exchange that fits a quarter of a 4,096-token context', () => {
    const history = [...exchange('find mugs', 'Two mugs.'), ...exchange('add one', 'Added.')];
    expect(fitHistory(history)).toEqual(history);
  });

  it('drops the oldest whole exchanges first, never half of one', () => {
    // About 600 tokens each: two do not fit a quarter of 4,096.
    const long = 'The blue mug holds 350 ml and costs 12 euros. '.repeat(40);
    const history = [...exchange('first', long), ...exchange('second', long), ...exchange('third', 'Short.')];
    expect(fitHistory(history).map((message) => message.content.slice(0, 6))).toEqual(['second', 'The bl', 'third', 'Short.']);
  });

  it('cuts the last answer when it alone is longer than the room, keeping the request whole', () => {
    const kept = fitHistory(exchange('summarise the page', 'y'.repeat(10_000)));
    expect(kept[0]).toEqual({ role: 'user', content: 'summarise the page' });
    expect(kept[1]!.content.endsWith(' … (cut)')).toBe(true);
    expect(estimateTokens(kept[0]!.content) + estimateTokens(kept[1]!.content)).toBeLessThanOrEqual(4096 / 4);
    expect(kept[1]!.content.length).toBeGreaterThan(2_500);
  });

  it('counts a character of Chinese as a token, so a dense conversation keeps fewer exchanges than English of the same length', () => {
    const english = [...exchange('first', 'a'.repeat(1_000)), ...exchange('second', 'b'.repeat(1_000))];
    const chinese = [...exchange('first', '商品'.repeat(500)), ...exchange('second', '价格'.repeat(500))];
    expect(fitHistory(english)).toEqual(english);
    expect(fitHistory(chinese).map((message) => message.content.slice(0, 6))).toEqual(['second', '价格价格价格']);
  });

  it('gives a model with more context more of the conversation', () => {
    const history = Array.from({ length: 6 }, (_, index) => exchange(`request ${index}`, 'z'.repeat(1_500))).flat();
    expect(fitHistory(history, 4096).length).toBeLessThan(fitHistory(history, 32_768).length);
    expect(fitHistory(history, 32_768)).toEqual(history);
  });
});
