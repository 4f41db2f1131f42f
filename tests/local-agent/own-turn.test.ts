import { describe, expect, it } from 'vitest';
import { createOwnTurn, ownTurn } from '../../lib/local-agent/own-turn';
import { readSharedEval, sharedEvalAvailable } from '../support/shared-eval';

/** The own turn as a stream cut into chunks of `size` characters gives it. */
function streamed(raw: string, size: number): string {
  const turn = createOwnTurn();
  let shown = '';
  for (let index = 0; index < raw.length; index += size) shown += turn.push(raw.slice(index, index + size));
  return shown + turn.flush();
}

const call = '<tool_call>{"name": "add_to_cart", "arguments": {"slug": "mug", "qty": 2}}</tool_call>';

describe('ownTurn', () => {
  it.each([
    ['a made-up Hermes tool result after the call', `Adding them.${call}\n<tool_response>{"ok":true}</tool_response>\nDone: two mugs are in your cart.`, `Adding them.${call}\n`],
    ['a made-up LFM2 tool result', '<|tool_call_start|>[open_cart()]<|tool_call_end|><|tool_response_start|>{"items":[]}<|tool_response_end|>Your cart is empty.', '<|tool_call_start|>[open_cart()]<|tool_call_end|>'],
    ['a ChatML tool turn it wrote itself', `${call}<|im_end|>\n<|im_start|>tool\n{"ok":true}<|im_end|>\n<|im_start|>assistant\nDone.`, call],
    ['a tool turn opened without ending its own', `${call}\n<|im_start|>user\n<tool_response>{"ok":true}</tool_response>`, `${call}\n`],
    ['the person played after its answer (ChatML)', 'The mug costs 12 USD.<|im_end|>\n<|im_start|>user\nThanks! Add two.<|im_end|>', 'The mug costs 12 USD.'],
    ['the person played after its answer (Llama 3)', 'The mug costs 12 USD.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nThanks!', 'The mug costs 12 USD.'],
    ['the person played after its answer (Gemma)', 'The mug costs 12 USD.<end_of_turn>\n<start_of_turn>user\nThanks!', 'The mug costs 12 USD.'],
    ['a second answer after its turn ended', 'It costs 12 USD.<|im_end|>\n<|im_start|>assistant\nIt costs 12 USD.', 'It costs 12 USD.'],
    ['turn-end tokens at the end', 'It costs 12 USD.<|im_end|><|endoftext|>', 'It costs 12 USD.'],
    ['other end tokens', 'One<|eom_id|> two<|end_of_text|> three<end_of_turn> four<|eot_id|>', 'One two three four'],
    ['a Mistral end of turn at the end of the reply', 'It costs 12 USD.</s>\n', 'It costs 12 USD.'],
    ['a Mistral end of turn before another token', 'It costs 12 USD.</s> <|endoftext|>', 'It costs 12 USD.'],
    ['a Mistral end of turn before the person\'s turn', 'It costs 12 USD.</s>\n<|im_start|>user\nThanks!', 'It costs 12 USD.'],
    ['an opener of its own turn echoed by the server', '<|im_start|>assistant\nIt costs 12 USD.', 'It costs 12 USD.'],
    ['a Llama 3 header of its own turn', '<|start_header_id|>assistant<|end_header_id|>\n\nIt costs 12 USD.', '\n\nIt costs 12 USD.'],
    // A code block the model ends its turn right after, or never closes, holds no tokens of its own.
    ['the person played after a code block', 'Run this:\n```sh\nnpm test\n```<|im_end|>\n<|im_start|>user\nThanks!', 'Run this:\n```sh\nnpm test\n```'],
    ['the person played inside a code block left open', 'Run this:\n```sh\nnpm test\n<|im_end|>\n<|im_start|>user\nThanks!', 'Run this:\n```sh\nnpm test\n'],
    // A reply that opens with a bracket is prose too: its apostrophe opens no string that would hide the end.
    ['the person played after a reply that opens with a link', '[Acme\'s store](https://shop.example/) has two mugs.<|im_end|>\n<|im_start|>user\nThanks!', '[Acme\'s store](https://shop.example/) has two mugs.'],
  ])('cuts %s', (_, raw, own) => {
    expect(ownTurn(raw)).toBe(own);
    for (const size of [1, 2, 3, 5, 7]) expect(streamed(raw, size)).toBe(own);
  });

  it('keeps text that only looks like a token, and text after a lone turn end', () => {
    for (const raw of ['Use <b>bold</b> or a <| pipe, 3 < 4 and </span>.', 'a <|im_', 'Price: 12.<|im_end|> Anything else?', 'x<|im_start|']) {
      const expected = raw.replace('<|im_end|>', '');
      expect(ownTurn(raw)).toBe(expected);
      for (const size of [1, 2, 4]) expect(streamed(raw, size)).toBe(expected);
    }
  });

  it('keeps an HTML strikethrough, in prose and in a call\'s arguments: only a </s> that ends the reply ends the turn', () => {
    const strike = '<tool_call>{"name": "post_comment", "arguments": {"text": "<s>12 USD</s> 9 USD"}}</tool_call>';
    for (const raw of ['Was <s>12 USD</s>, now 9 USD.', strike, `Posting it.${strike}`, 'A </s>\n\nand more']) {
      expect(ownTurn(raw)).toBe(raw);
      for (const size of [1, 2, 3, 5]) expect(streamed(raw, size)).toBe(raw);
    }
  });

  it('leaves the model\'s reasoning whole: a tag it thinks about does not cut the call it then writes', () => {
    const cases = [
      `<think>I will call it, then read the <tool_response> it gives, and tell <|im_start|>user.</think>${call}`,
      '<think>The page answers in <tool_response>, so',
      `<think>Done</s></think>Adding them.${call}<think>again <tool_response></think>`,
    ];
    for (const raw of cases) {
      expect(ownTurn(raw)).toBe(raw);
      for (const size of [1, 2, 3, 5, 7]) expect(streamed(raw, size)).toBe(raw);
    }
    // After the reasoning, a made-up result still ends the turn.
    expect(ownTurn(`<think>Add them.</think>${call}<tool_response>{"ok":true}</tool_response>Done.`)).toBe(`<think>Add them.</think>${call}`);
  });

  it('keeps a tag written in inline code: the model is writing about it, as when it thinks about one', () => {
    const cases = [
      'In Hermes, the page answers inside `<tool_response>` tags, and a turn starts with `<|im_start|>user`.',
      `\`<|tool_response_start|>\` is LFM2's.${call}`,
    ];
    for (const raw of cases) {
      expect(ownTurn(raw)).toBe(raw);
      for (const size of [1, 2, 3, 5, 7]) expect(streamed(raw, size)).toBe(raw);
    }
    // Outside the code, a made-up result still ends the turn.
    expect(ownTurn(`Results come in \`<tool_response>\`.${call}<tool_response>{"ok":true}</tool_response>`)).toBe(`Results come in \`<tool_response>\`.${call}`);
  });

  it('keeps a tag written in a string of a call\'s arguments: it is text for the page, and the call runs whole', () => {
    const cases = [
      '<tool_call>{"name": "post_comment", "arguments": {"text": "Hermes wraps results in <tool_response> tags"}}</tool_call>',
      `Searching.<tool_call>{"name": "search", "arguments": {"q": "<|im_start|>user"}}</tool_call>${call}`,
      // Escaped quotes and backslashes do not end the string; nor do the turn's own tokens, which stay in it.
      '<tool_call>{"name": "post_comment", "arguments": {"text": "say \\"hi\\" to <start_of_turn>user, C:\\\\<|start_header_id|>user<|end_header_id|> and <|im_end|>"}}</tool_call>',
      // Another call tag in a string starts the next call, as the parse reads it; the string there is read afresh.
      '<tool_call>{"name": "a", "arguments": {"q": "<tool_call>"}}</tool_call>',
      // LFM2's Python-like calls quote with either mark.
      `<|tool_call_start|>[post_comment(text="LFM2 answers in <|tool_response_start|>", note='<|im_start|>user\nhi')]<|tool_call_end|>Posted.`,
    ];
    for (const raw of cases) {
      expect(ownTurn(raw)).toBe(raw);
      for (const size of [1, 2, 3, 5, 7]) expect(streamed(raw, size)).toBe(raw);
    }
  });

  it('still cuts a made-up result after a call whose closing tag was forgotten, once its arguments have closed', () => {
    const posted = '<tool_call>{"name": "post_comment", "arguments": {"text": "It\'s in <tool_response> tags"}}';
    const cases = [
      [`${posted}\n<tool_response>{"ok":true}</tool_response>Posted.`, `${posted}\n`],
      // An apostrophe after the call opens no string.
      [`${posted}\nI'll wait.<tool_response>{"ok":true}`, `${posted}\nI'll wait.`],
      [`<|tool_call_start|>[post_comment(text='<tool_response>')]<|tool_response_start|>{"ok":true}`, `<|tool_call_start|>[post_comment(text='<tool_response>')]`],
      // A `<think>` in a call is the call's text, as the parse reads it: it opens no reasoning that would hide the result.
      ['<tool_call>{"name": "note", "arguments": {"text": "<think>"}}<tool_response>{}', '<tool_call>{"name": "note", "arguments": {"text": "<think>"}}'],
    ];
    for (const [raw, own] of cases) {
      expect(ownTurn(raw as string)).toBe(own);
      for (const size of [1, 2, 3, 5, 7]) expect(streamed(raw as string, size)).toBe(own);
    }
  });

  it('never lets a token out before it is whole, so none flashes on screen as it streams', () => {
    const turn = createOwnTurn();
    const shown = [...'Done.<|im_end|>\n<|im_start|>user\nMore'].map((char) => turn.push(char));
    expect(shown.join('')).toBe('Done.');
    expect(shown.join('')).not.toContain('<');
    expect(turn.flush()).toBe('');
  });

  it('says the turn is over as soon as a turn not its own starts, so the model can be stopped there', () => {
    /** The reply's own turn when `over` first turns true, streamed a character at a time. */
    const overAt = (raw: string) => {
      const turn = createOwnTurn();
      let kept = '';
      for (const char of raw) {
        kept += turn.push(char);
        if (turn.over) return kept;
      }
      return undefined;
    };
    expect(overAt(`Adding them.${call}<tool_response>{"ok":true}</tool_response>Done.`)).toBe(`Adding them.${call}`);
    expect(overAt('It costs 12 USD.<|im_end|>\n<|im_start|>user\nAdd ten.')).toBe('It costs 12 USD.');
    // A turn end alone, the model's own turn opened again, or a tag it thinks about is no such start.
    expect(overAt('It costs 12 USD.<|im_end|>')).toBeUndefined();
    expect(overAt('<|im_start|>assistant\nIt costs 12 USD.')).toBeUndefined();
    expect(overAt('<think>The page answers in <tool_response>, and <|im_start|>user asks.</think>Done.')).toBeUndefined();
    expect(overAt('<tool_call>{"name": "post_comment", "arguments": {"text": "<|im_end|>\n<|im_start|>user"}}</tool_call>')).toBeUndefined();
  });

  it('is ready for a new reply after a flush', () => {
    const turn = createOwnTurn();
    turn.push('Done.<tool_response>{}');
    turn.flush();
    expect(turn.over).toBe(false);
    expect(turn.push('Next reply.') + turn.flush()).toBe('Next reply.');
  });
});

describe.skipIf(!sharedEvalAvailable)('ownTurn on the raw output of real models (toolcalls.json)', () => {
  const cases = readSharedEval<Array<{ id: string; raw: string }>>('toolcalls.json') ?? [];

  // None of the recorded replies runs past its own turn: every one must reach the parse whole.
  it('leaves every recorded reply as it is, however it streams', () => {
    expect(cases.length).toBeGreaterThan(100);
    const changed = cases.filter(({ raw }) => ownTurn(raw) !== raw || streamed(raw, 3) !== raw).map(({ id }) => id);
    expect(changed).toEqual([]);
  });
});
