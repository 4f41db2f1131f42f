import { describe, expect, it } from 'vitest';
import { createProseFilter } from '../../lib/local-agent/prose-filter';

/** Every push's output, then flush's, for a reply cut into the given chunks. */
function run(...chunks: string[]): string[] {
  const filter = createProseFilter();
  return [...chunks.map((chunk) => filter.push(chunk)), filter.flush()];
}

const shown = (...chunks: string[]) => run(...chunks).join('');

describe('holding back', () => {
  it('holds back a tail that might start any of the three tags', () => {
    expect(run('Hi <', 'tool_call>{}</tool_call>')).toEqual(['Hi ', '', '']);
    expect(run('Hi <|tool_call_st', 'art|>[f()]<|tool_call_end|>!')).toEqual(['Hi ', '!', '']);
    expect(run('Hi <thi', 'nk>hm</think>there')).toEqual(['Hi ', 'there', '']);
  });

  it('lets the held tail out as soon as it cannot be a tag', () => {
    expect(run('a <', 'b')).toEqual(['a ', '<b', '']);
    expect(run('x <tool_', 'box>')).toEqual(['x ', '<tool_box>', '']);
    expect(run('1 < 2 and 3 <> 4')).toEqual(['1 < 2 and 3 <> 4', '']);
  });

  it('gives a held tail that never became a tag back on flush', () => {
    expect(run('The end <|tool_call')).toEqual(['The end ', '<|tool_call']);
    expect(run('<')).toEqual(['', '<']);
  });

  it('passes text without markup straight through', () => {
    expect(run('Plain ', 'text ', 'only.')).toEqual(['Plain ', 'text ', 'only.', '']);
  });
});

describe('dropping', () => {
  it('drops everything inside each of the three tags', () => {
    expect(shown('a<tool_call>{"name": "x"}</tool_call>b')).toBe('ab');
    expect(shown('a<|tool_call_start|>[x()]<|tool_call_end|>b')).toBe('ab');
    expect(shown('a<think>secret</think>b')).toBe('ab');
  });

  it('drops an unclosed region to the end', () => {
    expect(run('Sure.<tool_call>{"name": ', '"x"}')).toEqual(['Sure.', '', '']);
    expect(run('Sure.<think>and then', ' forever')).toEqual(['Sure.', '', '']);
  });

  it('ends an unclosed call region at the next call, as parseToolCalls does', () => {
    expect(shown('<tool_call>{}<|tool_call_start|>[f()]<|tool_call_end|> after </tool_call> end')).toBe(' after  end');
  });

  it('treats tags inside reasoning as reasoning', () => {
    expect(shown('<think>maybe <tool_call>x</tool_call> no</think>Answer')).toBe('Answer');
  });

  it('treats a reasoning tag inside a call as part of the call', () => {
    expect(shown('<tool_call>{"q": "<think>"}</tool_call>Done')).toBe('Done');
  });

  it('drops stray closing call tags', () => {
    expect(shown('Done.</tool_call> Yes.<|tool_call_end|>')).toBe('Done. Yes.');
  });

  it('drops a </think> that no <think> opened, but cannot take back the reasoning shown before it', () => {
    expect(run('Let me think...', '</think>Answer.')).toEqual(['Let me think...', 'Answer.', '']);
  });

  it('keeps a later stray </think> as prose, as parseToolCalls does', () => {
    expect(shown('<think>First</think>Second</think>Final')).toBe('Second</think>Final');
  });

  it('hides only the three tags: a fenced or whole-reply JSON call streams out as text', () => {
    const fenced = '```json\n{"name": "x", "arguments": {}}\n```';
    expect(shown(fenced)).toBe(fenced);
  });

  it('is ready for a new reply after flush', () => {
    const filter = createProseFilter();
    filter.push('<think>unfinished');
    expect(filter.flush()).toBe('');
    expect(filter.push('Fresh')).toBe('Fresh');
  });

  it('returns nothing for an empty or non-string delta', () => {
    const filter = createProseFilter();
    expect(filter.push('')).toBe('');
    expect(filter.push(undefined as unknown as string)).toBe('');
    expect(filter.flush()).toBe('');
  });
});
