import { describe, expect, it } from 'vitest';
import { segmentRawOutput } from '@/lib/traces/segment-raw-output';

describe('segmentRawOutput', () => {
  it('marks reasoning and tagged calls, and leaves the prose between them', () => {
    const raw = '<think>plan</think>Looking.\n<tool_call>{"name": "a", "arguments": {}}</tool_call> done';
    expect(segmentRawOutput(raw, 1)).toEqual([
      { kind: 'think', text: '<think>plan</think>' },
      { kind: 'prose', text: 'Looking.\n' },
      { kind: 'call', text: '<tool_call>{"name": "a", "arguments": {}}</tool_call>' },
      { kind: 'prose', text: ' done' },
    ]);
  });

  it('marks LFM2 call tags, an unclosed tag to the end, and nothing in a plain answer', () => {
    expect(segmentRawOutput('<|tool_call_start|>[a(x=1)]<|tool_call_end|>', 1)).toEqual([{ kind: 'call', text: '<|tool_call_start|>[a(x=1)]<|tool_call_end|>' }]);
    expect(segmentRawOutput('Sure. <tool_call>{"name"', 0)).toEqual([{ kind: 'prose', text: 'Sure. ' }, { kind: 'call', text: '<tool_call>{"name"' }]);
    expect(segmentRawOutput('Just an answer.', 0)).toEqual([{ kind: 'prose', text: 'Just an answer.' }]);
  });

  it('marks a fenced JSON call, or the whole reply when the parser read it as one bare call', () => {
    const fenced = 'Here:\n```json\n{"name": "a", "arguments": {}}\n```\nok';
    expect(segmentRawOutput(fenced, 1).map((segment) => segment.kind)).toEqual(['prose', 'call', 'prose']);
    expect(segmentRawOutput('{"name": "a", "parameters": {}}', 1)).toEqual([{ kind: 'call', text: '{"name": "a", "parameters": {}}' }]);
    expect(segmentRawOutput('', 0)).toEqual([]);
  });
});
