import { readFileSync } from 'node:fs';
import { Window, type Element } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../support/contrast';
import { timelineDrawnWidth } from '@/components/traces/timeline-chart';

const css = ['assets/theme.css', 'entrypoints/traces/style.css'].map((file) => readFileSync(file, 'utf8')).join('\n');
// Outcomes said in colour: the answer's green and the warnings' amber.
const colouredOutcomes = ['answer', 'interrupted', 'max-steps', 'repeated-call'];

/** The trace viewer's own stylesheets over the elements whose look is at risk, in one colour scheme. */
function viewerPage(scheme: 'light' | 'dark') {
  const window = new Window({ settings: { device: { prefersColorScheme: scheme } } });
  const { document } = window;
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  const item = (outcome: string, selected: boolean) =>
    `<li class="${selected ? 'selected' : ''}"><button class="run-button"><span class="outcome outcome-${outcome}">x</span></button></li>`;
  document.body.innerHTML = `
    <ul class="run-list">${colouredOutcomes.map((outcome) => item(outcome, false) + item(outcome, true)).join('')}</ul>
    <p class="replay-different">The replay went differently</p>
    <button class="danger">Delete it</button>
    <svg><rect class="timeline-bar bar-wait" /></svg>
    <span class="legend-swatch bar-wait"></span>
    <p><span class="problem-kind">Invalid arguments:</span> <span class="problem-kind not-a-fault">Declined:</span></p>`;
  return { window, document };
}

/** WCAG's contrast ratio of the element's text on the first background behind it. */
function contrastOf(window: Window, element: Element): number {
  const foreground = window.getComputedStyle(element).color;
  let background = '';
  for (let node: Element | null = element; node && !background; node = node.parentElement) {
    const colour = window.getComputedStyle(node).backgroundColor;
    // `background: none` reads back as "none": see-through, like no background at all.
    if (colour && !['none', 'transparent', 'rgba(0, 0, 0, 0)'].includes(colour)) background = colour;
  }
  return contrastRatio(foreground, background);
}

describe("the trace viewer's styles", () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`give coloured outcomes, the replay's difference and danger buttons text of 4.5:1 or more (${scheme})`, () => {
      const { window, document } = viewerPage(scheme);
      const checked = [...document.querySelectorAll('.outcome, .replay-different, button.danger')];
      expect(checked).toHaveLength(2 * colouredOutcomes.length + 2);
      for (const element of checked) expect(contrastOf(window, element), element.outerHTML).toBeGreaterThanOrEqual(4.5);
      window.close();
    });
  }

  it('draw a wait on the timeline, and in its legend, with a dashed edge, not only in its own colour', () => {
    const { window, document } = viewerPage('light');
    expect(window.getComputedStyle(document.querySelector('rect.bar-wait')!).strokeDasharray).not.toBe('');
    expect(window.getComputedStyle(document.querySelector('.legend-swatch.bar-wait')!).borderTopStyle).toBe('dashed');
    window.close();
  });

  it('label a problem that is no fault of the model (declined, withdrawn) in the text colour, not the red of a mistake', () => {
    const { window, document } = viewerPage('light');
    const [fault, notFault] = [...document.querySelectorAll('.problem-kind')].map((label) => window.getComputedStyle(label).color);
    expect(notFault).not.toBe(fault);
    expect(notFault).toBe(window.getComputedStyle(document.body).color);
    window.close();
  });
});

describe("the trace viewer's timeline", () => {
  it('is never shown narrower than it is drawn, so its words are never scaled below their size (it scrolls sideways instead)', () => {
    const rule = /\.timeline svg \{[^}]*min-width: (\d+)px/.exec(css);
    expect(Number(rule?.[1])).toBe(timelineDrawnWidth);
  });
});
