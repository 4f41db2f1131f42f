import { describe, expect, it } from 'vitest';
import { compactSchema } from '@/lib/local-agent';
import { foldChoiceTitles } from '@/lib/registry/fold-choice-titles';

describe('foldChoiceTitles: the words of a form’s choices, where the model reads them', () => {
  // What Chrome lists for <select name="time"><option value="s1">Friday 18:00</option>…
  const booking = {
    type: 'object',
    properties: {
      time: {
        type: 'string',
        description: 'When to come',
        enum: ['s1', 's2'],
        anyOf: [
          { const: 's1', title: 'Friday 18:00' },
          { const: 's2', title: 'Friday 20:00' },
        ],
      },
      guests: { type: 'integer' },
    },
    required: ['time'],
  };

  it('says each choice’s title beside its value in the description, which the compact schema keeps', () => {
    const { inputSchema, choices } = foldChoiceTitles(booking);
    expect(choices).toBeUndefined();
    expect(compactSchema(inputSchema as never)).toEqual({
      type: 'object',
      properties: {
        time: { type: 'string', description: 'When to come (s1 = Friday 18:00, s2 = Friday 20:00)', enum: ['s1', 's2'] },
        guests: { type: 'integer' },
      },
      required: ['time'],
    });
  });

  it('gives the choices of a long list to the tool’s description, where they are not cut at 160 characters', () => {
    const slots = Array.from({ length: 12 }, (_, index) => ({ const: `s${index}`, title: `Friday ${String(12 + index).padStart(2, '0')}:00` }));
    const { inputSchema, choices } = foldChoiceTitles({ type: 'object', properties: { time: { type: 'string', description: 'When to come', anyOf: slots } } });
    expect(choices).toBe(`Choices: time: ${slots.map(({ const: value, title }) => `${value} = ${title}`).join(', ')}.`);
    expect(compactSchema(inputSchema as never)).toEqual({
      type: 'object',
      properties: { time: { type: 'string', description: "When to come (the tool's description says what each value means)", enum: slots.map(({ const: value }) => value) } },
    });
  });

  it('writes an empty value, or one that reads as a number, as JSON, so it is not taken for nothing or a number', () => {
    const { inputSchema } = foldChoiceTitles({ type: 'object', properties: { time: { anyOf: [{ const: '', title: 'Choose a time' }, { const: '1', title: 'One o’clock' }, { const: 2, title: 'Two o’clock' }] } } });
    expect((inputSchema as { properties: { time: { description: string } } }).properties.time.description).toBe('("" = Choose a time, "1" = One o’clock, 2 = Two o’clock)');
  });

  it('adds the enum where only the anyOf lists the choices, also inside arrays', () => {
    const sizes = { type: 'object', properties: { sizes: { type: 'array', items: { anyOf: [{ const: 'S', title: 'Small' }, { const: 'L', title: 'Large' }] } } } };
    expect(foldChoiceTitles(sizes).inputSchema).toEqual({
      type: 'object',
      properties: { sizes: { type: 'array', items: { anyOf: [{ const: 'S', title: 'Small' }, { const: 'L', title: 'Large' }], enum: ['S', 'L'], description: '(S = Small, L = Large)' } } },
    });
  });

  it('leaves a schema whose choices say nothing more than their values as it is, the same object', () => {
    const plain = { type: 'object', properties: { size: { anyOf: [{ const: 'S', title: 'S' }, { const: 'M' }] }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } } };
    expect(foldChoiceTitles(plain).inputSchema).toBe(plain);
  });
});
