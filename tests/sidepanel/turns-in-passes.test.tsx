// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTurnsInPasses } from '@/components/chat/use-turns-in-passes';
import type { Turn } from '@/lib/agent/session-state';
import { mountPanel, type MountedPanel } from './mount-panel';
import { turn } from './session-fixtures';

const history = (tab: string, count: number): Turn[] =>
  Array.from({ length: count }, (_, index) =>
    turn({ id: `${tab}-${index}`, request: `request ${index}`, items: [{ kind: 'prose', text: `An answer of some length. `.repeat(80) }], outcome: 'answer' }),
  );

function Turns({ turns, conversation }: { turns: Turn[]; conversation: string }) {
  const hidden = useTurnsInPasses(turns, conversation);
  return (
    <ol>
      {turns.slice(hidden).map((each) => (
        <li key={each.id}>{each.id}</li>
      ))}
    </ol>
  );
}

let container: HTMLElement | undefined;
let panel: MountedPanel | undefined;
afterEach(() => {
  if (container) render(null, container);
  container?.remove();
  panel?.unmount();
  panel = undefined;
});

const shown = () => [...container!.querySelectorAll('li')].map((item) => item.textContent);

describe('a long conversation opened in the side panel', () => {
  it('shows its latest turns first and the older ones above them over the next passes', async () => {
    container = document.body.appendChild(document.createElement('div'));
    const turns = history('a', 60);
    render(<Turns turns={turns} conversation="tab 1" />, container);
    const first = shown();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(10);
    expect(first.at(-1)).toBe('a-59');
    // Another render in between, for any reason, holds the same turns back.
    render(<Turns turns={[...turns]} conversation="tab 1" />, container);
    expect(shown().length).toBeLessThan(10);
    await vi.waitFor(() => expect(shown()).toHaveLength(60));
    expect(shown()[0]).toBe('a-0');
  });

  it('shows a new turn of the same conversation at once, and starts again from the end for another conversation', async () => {
    container = document.body.appendChild(document.createElement('div'));
    const turns = history('a', 30);
    render(<Turns turns={turns} conversation="tab 1" />, container);
    await vi.waitFor(() => expect(shown()).toHaveLength(30));
    render(<Turns turns={[...turns, turn({ id: 'a-new' })]} conversation="tab 1" />, container);
    expect(shown()).toHaveLength(31);
    render(<Turns turns={history('b', 40)} conversation="tab 2" />, container);
    expect(shown().length).toBeLessThan(10);
    expect(shown().at(-1)).toBe('b-39');
    render(<Turns turns={[]} conversation="tab 2" />, container);
    render(<Turns turns={[turn({ id: 'b-new' })]} conversation="tab 2" />, container);
    expect(shown()).toEqual(['b-new']);
  });

  it('ends with every turn in the panel', async () => {
    panel = await mountPanel({ turns: history('a', 50) });
    await vi.waitFor(async () => {
      await panel!.flush();
      expect(panel!.findAll('turn')).toHaveLength(50);
    });
    expect(panel.findAll('request')[0]?.textContent).toBe('request 0');
  });
});
