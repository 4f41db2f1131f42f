// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'preact';
import { axisStart, TimelineChart } from '@/components/traces/timeline-chart';
import { layoutTimeline } from '@/lib/traces/timeline-layout';
import type { TraceRun, TraceStep } from '@/lib/traces/trace-schema';

const run = (startedAt: number, endedAt: number): TraceRun => ({
  id: 'r', tabId: 1, url: '', origin: '', engineId: 'webllm', model: 'm', request: 'x',
  startedAt, endedAt, outcome: 'answer', stepCount: 2, sizeBytes: 0, updatedAt: endedAt,
});
const step = (number: number, startedAt: number, modelMs: number): TraceStep => ({
  runId: 'r', step: number, startedAt, modelMs, tools: [], messages: [], raw: '', complete: true, prose: '', calls: [], problems: [], usage: {},
});

let container: HTMLElement | undefined;
afterEach(() => {
  if (container) render(null, container);
  container?.remove();
});

/** The chart drawn: each bar's kind and step with where it starts and ends along the chart, and the axis' words. */
function drawn(layout: ReturnType<typeof layoutTimeline>) {
  container = document.createElement('div');
  document.body.append(container);
  render(<TimelineChart layout={layout} />, container);
  const bars = [...container.querySelectorAll('[data-testid="timeline-bar"]')].map((bar) => {
    const x = Number(bar.getAttribute('x'));
    return { kind: bar.getAttribute('data-kind'), x, end: x + Number(bar.getAttribute('width')) };
  });
  const ticks = [...container.querySelectorAll('.timeline-tick text')].map((text) => text.textContent);
  return { bars, ticks, cut: container.querySelector('[data-testid="timeline-cut"]') !== null };
}

describe('the timeline’s axis, where the model took minutes to load', () => {
  // Two minutes of download before the first reply, then two steps of two seconds.
  const slowStart = layoutTimeline({ run: run(0, 124_500), steps: [step(1, 120_000, 2_000), step(2, 122_300, 2_000)] });

  it('starts shortly before the first reply, at a round time, and marks the first bar as cut there', () => {
    expect(axisStart(slowStart)).toBe(119_000);
    const { bars, ticks, cut } = drawn(slowStart);
    expect(cut).toBe(true);
    expect(ticks[0]).toBe('1 min 59 s');
    // The steps take most of the chart's width, not a sliver at its end.
    const models = bars.filter((bar) => bar.kind === 'model');
    expect(models[0]!.x).toBeLessThan(64 + 640 * 0.25);
    expect(models[1]!.end - models[0]!.x).toBeGreaterThan(640 * 0.7);
  });

  it('starts at the run’s start where the time before the first reply is a small part of it', () => {
    const quick = layoutTimeline({ run: run(0, 5_000), steps: [step(1, 500, 2_000), step(2, 2_800, 2_000)] });
    expect(axisStart(quick)).toBe(0);
    const { ticks, cut } = drawn(quick);
    expect([ticks[0], cut]).toEqual(['0 ms', false]);
  });
});

describe('the timeline as a screen reader and the keyboard meet it', () => {
  const layout = layoutTimeline({ run: run(0, 4_500), steps: [step(1, 0, 2_000), step(2, 2_300, 2_000)] });

  it('is named "Timeline", not by its legend, and is a tab stop only where it scrolls sideways', async () => {
    drawn(layout);
    const figure = container!.querySelector('figure')!;
    expect(figure.getAttribute('aria-label')).toBe('Timeline');
    expect(figure.querySelector('figcaption')).toBeNull();
    const scroller = container!.querySelector<HTMLElement>('.timeline-scroll')!;
    // Laid out wide enough: nothing to scroll, nothing to stop at.
    expect(scroller.hasAttribute('tabindex')).toBe(false);

    // A narrow page: the chart keeps its width and scrolls, by keyboard too.
    render(null, container!);
    const scrollWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollWidth');
    Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, get: () => 600 });
    try {
      render(<TimelineChart layout={layout} />, container!);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(container!.querySelector('.timeline-scroll')?.getAttribute('tabindex')).toBe('0');
    } finally {
      if (scrollWidth) Object.defineProperty(HTMLElement.prototype, 'scrollWidth', scrollWidth);
      else delete (HTMLElement.prototype as { scrollWidth?: number }).scrollWidth;
    }
  });
});
