import { describe, expect, it } from 'vitest';
import { markerTrieText } from '../../lib/local-agent/parsing/marker-trie';
import { scanProse, startProseFilterState } from '../../lib/local-agent/scan-prose';

describe('scanProse', () => {
  it('leaves the state in the region a stretch ends in', () => {
    const state = startProseFilterState();
    expect(scanProse(state, 'Hi <think>still thinking')).toBe('Hi ');
    expect(state.region).toBe('think');
    expect(scanProse(state, '</think>there <tool_call>{"name"')).toBe('there ');
    expect(state.region).toBe('hermes');
    expect(scanProse(state, '}<|tool_call_start|>[f()]')).toBe('');
    expect(state.region).toBe('lfm2');
  });

  it('holds a tail that might start a tag in the state, with its place in the trie', () => {
    const state = startProseFilterState();
    expect(scanProse(state, 'a < b <tool_')).toBe('a < b ');
    expect(state.held).toBe('<tool_');
    expect(markerTrieText(state.heldNode)).toBe('<tool_');
  });

  it('drops only the first reasoning tag when it is an unopened close', () => {
    const state = startProseFilterState();
    expect(scanProse(state, 'a</think>b</think>c')).toBe('ab</think>c');
    expect(state.sawThinkTag).toBe(true);
  });
});
