import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatDuration } from '@/lib/text/format-duration';
import type { TimelineBar, TimelineLayout } from '@/lib/traces/timeline-layout';
import { TimelineTable, timelineKindNames } from './timeline-table';

const labelWidth = 64;
const chartWidth = 640;
/** The width the chart is drawn at, in its own units: the viewer's stylesheet never shows it narrower. */
export const timelineDrawnWidth = labelWidth + chartWidth + 40;
const rowHeight = 24;
const axisHeight = 22;
/** A bar never gets thinner than this, so a 1 ms tool call still shows. */
const minimumBarWidth = 2;

/** Tool calls are thinner bars, so that they differ from model time by more than colour (waits have a dashed edge). */
const toolBarInset = 4;

/** The run as a waterfall: one row a step, model time, waits and tool time where they fell. */
export function TimelineChart({ layout }: { layout: TimelineLayout }) {
  // The layout's wall time already reaches the end of the last bar.
  const spanMs = Math.max(1, layout.totals.wallMs);
  const startMs = axisStart(layout);
  const x = (ms: number) => labelWidth + (Math.max(0, ms - startMs) / (spanMs - startMs)) * chartWidth;
  const rowOf = new Map(layout.steps.map((step, index) => [step, index]));
  const height = axisHeight + layout.steps.length * rowHeight + 4;
  const ticks = niceTicks(spanMs - startMs).map((tick) => startMs + tick);
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);
  return (
    // Named as the section is, not by its legend's colour names.
    <figure class="timeline" data-testid="timeline" aria-label="Timeline">
      {/*
        The chart keeps at least the width it is drawn at (744 px), so its words are never scaled down, and zooming in makes them larger; where the
        page is narrower it scrolls sideways, by keyboard too (a tab stop only then). A screen reader
        hears it named as an image whose words are in the table after it.
      */}
      <div
        class="timeline-scroll"
        ref={scroller}
        tabIndex={scrolls ? 0 : undefined}
        role="img"
        aria-label="Timeline chart; the table that follows gives the same times"
      >
        <svg viewBox={`0 0 ${timelineDrawnWidth} ${height}`} aria-hidden="true">
          {ticks.map((tick) => (
            <g key={tick} class="timeline-tick">
              <line x1={x(tick)} x2={x(tick)} y1={axisHeight - 4} y2={height} />
              <text x={x(tick)} y={12} text-anchor="middle">
                {formatDuration(tick)}
              </text>
            </g>
          ))}
          {layout.steps.map((step, index) => (
            <text key={step} class="timeline-label" x={4} y={axisHeight + index * rowHeight + 16}>
              Step {step}
            </text>
          ))}
          {layout.bars.map((bar, index) => (
            <rect
              key={index}
              class={`timeline-bar bar-${bar.kind}`}
              data-testid="timeline-bar"
              data-kind={bar.kind}
              data-step={bar.step}
              x={x(bar.startMs)}
              y={axisHeight + (rowOf.get(bar.step) ?? 0) * rowHeight + 4 + inset(bar)}
              width={Math.max(minimumBarWidth, x(bar.startMs + bar.durationMs) - x(bar.startMs))}
              height={rowHeight - 8 - 2 * inset(bar)}
              rx={2}
            >
              <title>{`Step ${bar.step} · ${bar.label} · ${formatDuration(bar.durationMs)}`}</title>
            </rect>
          ))}
          {startMs > 0 && (
            // The axis starts late: the first bar is cut where it does, which two slanted strokes mark.
            <g class="timeline-cut" data-testid="timeline-cut">
              <line x1={labelWidth - 3} x2={labelWidth + 1} y1={axisHeight + rowHeight - 3} y2={axisHeight + 3} />
              <line x1={labelWidth + 1} x2={labelWidth + 5} y1={axisHeight + rowHeight - 3} y2={axisHeight + 3} />
            </g>
          )}
        </svg>
      </div>
      <TimelineTable layout={layout} />
      <TimelineLegend />
    </figure>
  );
}

/** Whether the element is narrower than what it holds, as it is laid out now and at each resize. */
function useScrollsSideways(ref: RefObject<HTMLElement>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

function TimelineLegend() {
  return (
    <div class="timeline-legend">
      {/* In the order of the sums under the chart. */}
      {(['model', 'tool', 'wait', 'between'] as const).map((kind) => (
        <span key={kind} class="legend-item">
          <span class={`legend-swatch bar-${kind}`} />
          {timelineKindNames[kind]}
        </span>
      ))}
    </div>
  );
}

function inset(bar: TimelineBar): number {
  return bar.kind === 'tool' ? toolBarInset : 0;
}

/**
 * Where the axis starts: at the run's start, or, where the time before the first reply takes most
 * of the run (a model downloading for minutes), a round time shortly before that reply, so that the
 * steps are not drawn as slivers at the end. The table under the chart gives every time in full.
 */
export function axisStart(layout: TimelineLayout): number {
  const [first] = layout.bars;
  const spanMs = layout.totals.wallMs;
  if (!first || first.kind !== 'between' || first.startMs !== 0 || first.durationMs < spanMs * firstGapShare) return 0;
  const restMs = spanMs - first.durationMs;
  const step = niceTicks(restMs)[1] ?? restMs;
  return step > 0 ? Math.max(0, Math.floor((first.durationMs - restMs * 0.1) / step) * step) : 0;
}

/** The share of the run past which the time before the first reply is cut short on the chart. */
const firstGapShare = 0.4;

/** Steps of the axis a person counts in: milliseconds by 1, 2, 5; seconds and minutes by 1, 2, 5, 10, 15, 30; hours by 1, 2, 3, 6, 12, 24. */
const tickSteps = [
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500],
  ...[1, 2, 5, 10, 15, 30].map((seconds) => seconds * 1_000),
  ...[1, 2, 5, 10, 15, 30].map((minutes) => minutes * 60_000),
  ...[1, 2, 3, 6, 12, 24].map((hours) => hours * 3_600_000),
];

/** Round times along the axis (0, 200 ms, 400 ms …; 0, 10 min, 20 min …), at most six of them. */
export function niceTicks(spanMs: number): number[] {
  const rough = spanMs / 5;
  const step = tickSteps.find((candidate) => candidate >= rough) ?? Math.ceil(rough / 86_400_000) * 86_400_000;
  return Array.from({ length: Math.floor(spanMs / step) + 1 }, (_, index) => index * step);
}

/** The sums under the chart: where the time went, and the tokens. */
export function TimelineTotals({ layout }: { layout: TimelineLayout }) {
  const { totals } = layout;
  const rows: Array<[string, string, string]> = [
    ['total', 'Total', formatDuration(totals.wallMs)],
    ['model', 'Model', formatDuration(totals.modelMs)],
    ['tool', 'Tools', formatDuration(totals.toolMs)],
    ['wait', 'Waiting for you', formatDuration(totals.waitMs)],
    ['between', 'Before the replies', formatDuration(totals.betweenMs)],
    ['tokens', 'Tokens in / out', `${totals.promptTokens ?? '–'} / ${totals.completionTokens ?? '–'}`],
  ];
  return (
    <dl class="timeline-totals" data-testid="timeline-totals">
      {rows.map(([key, label, value]) => (
        <div key={key} data-total={key}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
