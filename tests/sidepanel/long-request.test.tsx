// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'preact/test-utils';
import { requestPreview, showAllWords } from '@/lib/sidepanel/request-preview';
import { mountPanel, type MountedPanel } from './mount-panel';
import { turn } from './session-fixtures';

describe('requestPreview', () => {
  it('leaves a request of a few lines whole', () => {
    expect(requestPreview('add two mugs to the cart')).toBeUndefined();
    expect(requestPreview('a'.repeat(600))).toBeUndefined();
    expect(requestPreview(Array.from({ length: 12 }, (_, line) => `line ${line}`).join('\n'))).toBeUndefined();
  });

  it('shows a long one by its start, ended on a whole word', () => {
    const pasted = 'Summarise this article for me please. '.repeat(100);
    const start = requestPreview(pasted)!;
    expect(start.length).toBeLessThanOrEqual(402);
    expect(start).toMatch(/^Summarise this article for me please\. Summarise .* …$/);
    expect(pasted.startsWith(start.slice(0, -2))).toBe(true);
    expect(start.slice(0, -2)).toMatch(/\S$/);
    expect(pasted[start.length - 2]).toMatch(/\s/);
  });

  it('keeps a whole last word where the cut falls between two words', () => {
    // 400 characters up to the end of "end", then a space: the start ends on "end", whole.
    const request = `${'x'.repeat(396)} end ${'y'.repeat(300)}`;
    expect(requestPreview(request)).toBe(`${'x'.repeat(396)} end …`);
  });

  it('says what "Show all" brings: the lines, where they were too many, else the characters as a reader counts them', () => {
    expect(showAllWords(Array.from({ length: 30 }, () => 'a line').join('\n'))).toBe('Show all 30 lines');
    expect(showAllWords('🇯🇵'.repeat(400))).toBe('Show all 400 characters');
    expect(showAllWords('word '.repeat(300))).toBe('Show all 1,500 characters');
  });

  it('shows eight lines of a request of many short lines', () => {
    const list = Array.from({ length: 30 }, (_, line) => `item ${line}`).join('\n');
    expect(requestPreview(list)).toBe(`${Array.from({ length: 8 }, (_, line) => `item ${line}`).join('\n')} …`);
  });

  it('cuts a text without spaces between two characters as a reader sees them', () => {
    const flags = '🇯🇵'.repeat(400);
    const start = requestPreview(flags)!.slice(0, -2);
    expect(start.length % 4).toBe(0);
    expect(flags.startsWith(start)).toBe(true);
  });
});

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

describe('a long request in the side panel', () => {
  it('shows its start in the bubble, all of it on a press of "Show all", and its start again on "Show less"', async () => {
    const pasted = 'Summarise this article for me please. '.repeat(500).trim();
    panel = await mountPanel({ turns: [turn({ request: pasted, outcome: 'answer' }), turn({ id: 'turn-2', request: 'and shorter?', outcome: 'answer' })] });
    const [long, short] = panel.findAll('request');
    expect(long!.textContent).toBe(requestPreview(pasted));
    expect(short!.textContent).toBe('and shorter?');
    // One button, for the long request, that says what it holds back and what it shows.
    const toggle = panel.findAll('request-toggle');
    expect(toggle).toHaveLength(1);
    expect(toggle[0]!.textContent).toBe('Show all 18,999 characters');
    expect(toggle[0]!.getAttribute('aria-expanded')).toBe('false');
    expect(toggle[0]!.getAttribute('aria-controls')).toBe(long!.id);

    await act(() => toggle[0]!.click());
    expect(long!.textContent).toBe(pasted);
    expect(toggle[0]!.textContent).toBe('Show less');
    expect(toggle[0]!.getAttribute('aria-expanded')).toBe('true');

    await act(() => toggle[0]!.click());
    expect(long!.textContent).toBe(requestPreview(pasted));
  });

  it('shows by their code the characters that draw nothing in a request pasted from elsewhere, which the model reads all the same', async () => {
    const request = 'summarise this page\u{E0049}\u{E0067}\u{E006E}\u200b';
    panel = await mountPanel({ turns: [turn({ request, outcome: 'answer' })] });
    const heading = panel.find('request')!;
    expect([...heading.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code)).toEqual(['U+E0049', 'U+E0067', 'U+E006E', 'U+200B']);
    expect(heading.textContent).toBe(request);
  });

  it('says under the latest request how few of the requests above the model read with it, and nothing where it read them all', async () => {
    const earlier = Array.from({ length: 4 }, (_, index) => turn({ id: `turn-${index}`, request: `request ${index}`, outcome: 'answer', requestsRead: index }));
    panel = await mountPanel({ turns: [...earlier, turn({ id: 'turn-4', request: 'what did I ask first?', outcome: 'answer', requestsRead: 2 })] });
    // Only the latest turn says it: the person's next request follows it.
    expect(panel.findAll('history-read').map((note) => note.textContent)).toEqual([
      'The model read only the last 2 requests above with this one: earlier ones do not fit what it reads at once, or were on another site.',
    ]);
    panel.unmount();
    panel = await mountPanel({ turns: [...earlier.slice(0, 2), turn({ id: 'turn-2', request: 'and now?', outcome: 'answer', requestsRead: 2 })] });
    expect(panel.find('history-read')).toBeNull();
    panel.unmount();
    panel = await mountPanel({ turns: [...earlier.slice(0, 2), turn({ id: 'turn-2', request: 'on another site', requestsRead: 0 })] });
    expect(panel.find('history-read')?.textContent).toBe('The model read none of the requests above with this one.');
  });

  it('does not count a request above that no model read (its load failed), nor say the model skipped it', async () => {
    const answered = turn({ id: 'turn-0', request: 'find mugs', outcome: 'answer', requestsRead: 0 });
    const failed = turn({ id: 'turn-1', request: 'and cups?', outcome: 'error', notice: 'Nothing was done. The download of Qwen3 0.6B (q4f32) failed.' });
    panel = await mountPanel({ turns: [answered, failed, turn({ id: 'turn-2', request: 'and cups?', outcome: 'answer', requestsRead: 1 })] });
    expect(panel.find('history-read')).toBeNull();
    panel.unmount();
    // Tried again right after its only request failed: there was nothing above to read.
    panel = await mountPanel({ turns: [failed, turn({ id: 'turn-2', request: 'and cups?', outcome: 'answer', requestsRead: 0 })] });
    expect(panel.find('history-read')).toBeNull();
  });
});
