// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { spokenAnswer } from '@/lib/sidepanel/spoken-answer';
import { toolCard, turn } from './session-fixtures';

const answered = (...texts: string[]) => turn({ outcome: 'answer', items: texts.map((text) => ({ kind: 'prose' as const, text })) });

describe('spokenAnswer', () => {
  it('says the answer in words, without Markdown marks, a block a line', () => {
    const said = spokenAnswer(
      answered('I added **two** mugs to [your cart](https://shop.example/cart).\n\n- Trail Mug, *Clay Red*: $16.00\n- Camp Mug\n  - Blue: `$12.00`\n\n| Item | Price |\n|---|---|\n| Mug | $16 |'),
    );
    expect(said).toBe('I added two mugs to your cart (shop.example).\nTrail Mug, Clay Red: $16.00\nCamp Mug\nBlue: $12.00\nItem, Price\nMug, $16');
  });

  it('says the answer of a multi-step run, not what the model said before its calls, which would take its time', () => {
    const narration = 'First I search the shop for mugs, then I open each one to check its price and whether it is in stock, and then I look at your cart. '.repeat(3);
    const said = spokenAnswer(
      turn({ outcome: 'answer', items: [{ kind: 'prose', text: narration }, toolCard({ state: 'done' }), { kind: 'prose', text: 'Found 3 mugs.' }, { kind: 'prose', text: 'The cheapest is $12.' }] }),
    );
    expect(said).toBe('Found 3 mugs.\nThe cheapest is $12.');
    // A run whose words all came before its last call says those.
    expect(spokenAnswer(turn({ outcome: 'answer', items: [{ kind: 'prose', text: 'Added.' }, toolCard({ state: 'done' })] }))).toBe('Added.');
  });

  it('says only the start of a long answer, cut between words, and where the rest is', () => {
    const said = spokenAnswer(answered(Array.from({ length: 120 }, (_, index) => `word${index}`).join(' ')));
    expect(said.length).toBeLessThan(380);
    expect(said).toMatch(/ word\d+… The whole answer is in the conversation\.$/);
  });

  it('reads only the start of a reply of a megabyte', () => {
    const said = spokenAnswer(answered(`Here is all of it.\n\n${'| a | b |\n|---|---|\n| 1 | 2 |\n\n'.repeat(40_000)}`));
    expect(said.startsWith('Here is all of it.\na, b\n1, 2')).toBe(true);
    expect(said).toMatch(/… The whole answer is in the conversation\.$/);
  });

  it('shows the page’s markup as text, never as elements, and says an answer of no words is ready', () => {
    expect(spokenAnswer(answered('<img src=x onerror="alert(1)"> Done <b>now</b>'))).toBe('<img src=x onerror="alert(1)"> Done <b>now</b>');
    expect(spokenAnswer(answered(''))).toBe('The answer is ready.');
  });
});
