import { describe, expect, it } from 'vitest';
import { createOwnTurn, ownTurn } from '../../lib/local-agent/own-turn';
import { parseToolCalls } from '../../lib/local-agent/parse-tool-calls';
import { readSharedEval, sharedEvalAvailable } from '../support/shared-eval';

/** The own turn as a stream cut into chunks of `size` characters gives it. */
function streamed(raw: string, size: number): string {
  const turn = createOwnTurn();
  let shown = '';
  for (let index = 0; index < raw.length; index += size) shown += turn.push(raw.slice(index, index + size));
  return shown + turn.flush();
}

/** The own turn as a stream cut in two at each position, and in chunks of 1 to 7 characters, gives it: all the same. */
function everyStream(raw: string): Set<string> {
  const results = new Set<string>();
  for (let split = 0; split <= raw.length; split += 1) {
    const turn = createOwnTurn();
    results.add(turn.push(raw.slice(0, split)) + turn.push(raw.slice(split)) + turn.flush());
  }
  for (let size = 1; size <= 7; size += 1) results.add(streamed(raw, size));
  return results;
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

  it('keeps a tag written in a fenced block: the model is showing a format, not writing the next turn', () => {
    const cases = [
      'Here is the format:\n```xml\n<tool_response>{"ok": true}</tool_response>\n```\nDone.',
      // Tildes too, and every token stays in the block, turn ends included.
      'A ChatML chat reads:\n~~~\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n~~~\nThat is all.',
      // Indented up to three spaces, closed only by as many marks of its own kind; a line with text after its marks closes nothing.
      'Nested:\n   ````md\n```\n<tool_response>\n~~~~~\n```` not the end\n<|start_header_id|>user<|end_header_id|>\n  `````\nDone.',
      // A fence beside a fenced call, and a tag in a string of the fenced call.
      '```json\n{"name": "post_comment", "arguments": {"text": "Results come in <tool_response> tags"}}\n```\nThe page answers so:\n```\n<tool_response>{"ok": true}</tool_response>\n```',
      `${call}\nWhat the page sends back:\n\`\`\`\n<tool_response>{"ok": true}</tool_response>\n\`\`\``,
    ];
    for (const raw of cases) {
      expect(ownTurn(raw)).toBe(raw);
      expect(everyStream(raw)).toEqual(new Set([raw]));
    }
  });

  it('still cuts a made-up result after a fenced block, and one written after a call in the same block', () => {
    const fencedCall = '```json\n{"name": "search_products", "arguments": {"query": "mug"}}\n';
    const cases = [
      // After a fenced call: the fence has closed.
      [`${fencedCall}\`\`\`\n<tool_response>{"results": []}</tool_response>\nNo mugs.`, `${fencedCall}\`\`\`\n`],
      [`${fencedCall}\`\`\`\n<|im_start|>user\nThanks`, `${fencedCall}\`\`\`\n`],
      // In the same block as the call: the call is the model's turn, and the result after it is made up.
      [`${fencedCall}<tool_response>{"results": []}</tool_response>\n\`\`\``, fencedCall],
      // Marks after the JSON on its line close no block (CommonMark), but the call in it is whole.
      [`\`\`\`\n[{"name": "search_products", "arguments": {"query": "mug"}}]\`\`\`\n<tool_response>{}`, '```\n[{"name": "search_products", "arguments": {"query": "mug"}}]```\n'],
      // Nor do marks with the result right after them, which are no inline code in a block.
      [`${fencedCall}\`\`\`<tool_response>{}`, `${fencedCall}\`\`\``],
      [`\`\`\`xml\n${call}\n<tool_response>{"ok": true}</tool_response>\n\`\`\``, `\`\`\`xml\n${call}\n`],
      // After a block of text, once it has closed.
      ['```xml\n<tool_response>x</tool_response>\n```\nAdding them.<tool_response>{"ok": true}', '```xml\n<tool_response>x</tool_response>\n```\nAdding them.'],
      // Not fences: marks mid-line, a backtick in a ``` line's info string, four spaces before them.
      ['Use ```x``` here.\n<tool_response>{}', 'Use ```x``` here.\n'],
      ['```json {"a": 1}```\n<tool_response>{}', '```json {"a": 1}```\n'],
      ['    ```\n<tool_response>{}', '    ```\n'],
    ];
    for (const [raw, own] of cases) {
      expect(ownTurn(raw as string)).toBe(own);
      expect(everyStream(raw as string)).toEqual(new Set([own]));
    }
    // What is kept of a call fenced with its made-up result is the call, which the parse reads.
    const parsed = parseToolCalls(ownTurn(`${fencedCall}<tool_response>{"results": []}</tool_response>\n\`\`\``), new Set(['search_products']));
    expect(parsed.calls).toEqual([{ name: 'search_products', arguments: { query: 'mug' } }]);
  });

  it('holds nothing back for a fenced block left open: the whole reply comes out by its end', () => {
    const raw = 'Here:\n```xml\n<tool_response>{"ok": true}</tool_response>\n<|im_start|>user\n';
    expect(everyStream(raw)).toEqual(new Set([raw]));
    const turn = createOwnTurn();
    // Each line is out as soon as it is whole: only a tail that may start a token waits.
    expect(turn.push(raw)).toBe('Here:\n```xml\n<tool_response>{"ok": true}</tool_response>\n<|im_start|>user\n');
    expect(turn.flush()).toBe('');
    // The next reply starts outside any block.
    expect(turn.push('Done.<tool_response>{}') + turn.flush()).toBe('Done.');
  });

  it('keeps a tag written in a string of a bare JSON call the reply starts with, and cuts a result made up after it', () => {
    const post = '{"name": "post_comment", "arguments": {"text": "Hermes answers in <tool_response> tags; <|im_start|>user opens a turn"}}';
    const keep = [
      post,
      `  <think>Post it.</think>\n${post}`,
      `<|im_start|>assistant\n[${post}, ${post}]`,
      // Calls one after another, as the parse reads them.
      `${post}\n${post};${post}`,
      '{"type": "message", "text": "Write <tool_response> in inline code."}',
    ];
    for (const raw of keep) {
      const own = raw.replace('<|im_start|>assistant\n', '');
      expect(ownTurn(raw)).toBe(own);
      expect(everyStream(raw)).toEqual(new Set([own]));
    }
    const cut = [
      [`${post}\n<tool_response>{"ok": true}</tool_response>`, `${post}\n`],
      [`${post} Posted.<|im_start|>user\nThanks`, `${post} Posted.`],
      // JSON that does not start the reply is prose, as the parse reads it.
      ['Sure. {"text": "<tool_response>"}', 'Sure. {"text": "'],
    ];
    for (const [raw, own] of cut) {
      expect(ownTurn(raw as string)).toBe(own);
      expect(everyStream(raw as string)).toEqual(new Set([own]));
    }
    expect(parseToolCalls(ownTurn(post), new Set(['post_comment'])).calls).toEqual([
      { name: 'post_comment', arguments: { text: 'Hermes answers in <tool_response> tags; <|im_start|>user opens a turn' } },
    ]);
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
