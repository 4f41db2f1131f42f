// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxStepCharacters } from '@/components/chat/use-throttled-text';
import { lexMarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';
import { mountPanel, type MountedPanel } from './mount-panel';
import { tabId, turn } from './session-fixtures';

// Spied, not replaced: the real lexer runs, and the test reads what it was given.
vi.mock('@/lib/sidepanel/lex-markdown-blocks', { spy: true });

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

const paragraphs = Array.from({ length: 600 }, (_, index) => `Paragraph ${index} of a long answer, with **bold** words.\n\n`);
const reply = paragraphs.join('').repeat(4);

/** How many characters each lexing of the reply read, in order. */
const lexedLengths = () => vi.mocked(lexMarkdownBlocks).mock.calls.map(([text]) => text.length);

  // These render long replies for real: on a busy two-core machine past vitest's 5 s default, which is no finding.
describe('a long reply', () => {
  it('that arrives finished, as after a worker restart, is read in steps and ends all shown', async () => {
    panel = await mountPanel();
    vi.mocked(lexMarkdownBlocks).mockClear();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text: reply }], outcome: 'answer' }) });

    const lengths = lexedLengths();
    expect(lengths.length).toBeGreaterThanOrEqual(Math.ceil(reply.length / maxStepCharacters));
    lengths.forEach((length, index) => expect(length - (lengths[index - 1] ?? 0)).toBeLessThanOrEqual(maxStepCharacters));
    expect(lengths.at(-1)).toBe(reply.length);
    expect(panel.find('prose')?.querySelectorAll('p')).toHaveLength(2_400);
  }, 20_000);

  it('that streams faster than the panel renders is read in steps too, and the end of the turn shows the rest', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    vi.mocked(lexMarkdownBlocks).mockClear();
    // The whole reply in a few large deltas, as batched prose from a fast model arrives.
    for (let start = 0; start < reply.length; start += 32_000) {
      await panel.deliver({ type: 'prose-delta', tabId, turnId: 'turn-1', text: reply.slice(start, start + 32_000) });
    }
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text: reply }], outcome: 'answer' }) });

    const lengths = lexedLengths();
    lengths.forEach((length, index) => expect(length - (lengths[index - 1] ?? 0)).toBeLessThanOrEqual(maxStepCharacters));
    expect(lengths.at(-1)).toBe(reply.length);
    expect(panel.find('prose')?.textContent).toContain('Paragraph 599 of a long answer');
    expect(panel.find('prose')?.querySelectorAll('p')).toHaveLength(2_400);
  }, 20_000);

  it('shows a block larger than a pass can render whole when it follows a short one: a long list or code block after an intro', async () => {
    panel = await mountPanel();
    // Larger than any pass renders, however fast this machine has proved.
    const code = Array.from({ length: 2_000 }, (_, index) => `const line${index} = ${index}; // padding the block`).join('\n');
    const list = Array.from({ length: 120 }, (_, index) => `${index + 1}. Item number ${index + 1} of the list, described`).join('\n');
    const text = `Here is the code:\n\n\`\`\`js\n${code}\n\`\`\`\n\nAnd the list:\n\n${list}\n\nShall I add them?`;
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text }], outcome: 'answer' }) });
    // Each pass waits for the one before to be painted.
    for (let pass = 0; pass < 20; pass++) await panel.flush();
    expect(panel.find('prose')?.textContent).toContain('Shall I add them?');
    expect(panel.find('prose')?.querySelector('code')?.textContent).toBe(`${code}\n`);
    expect(panel.find('prose')?.querySelectorAll('li')).toHaveLength(120);
  }, 20_000);
});
