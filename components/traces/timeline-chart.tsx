import { formatDuration } from '@/lib/sidepanel/format-duration';
import type { TimelineBar, TimelineLayout } from '@/lib/traces/timeline-layout';
import { TimelineTable, timelineKindNames } from './timeline-table';

const labelWidth = 64;
const chartWidth = 640;
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
  const x = (ms: number) => labelWidth + (ms / spanMs) * chartWidth;
  const rowOf = new Map(layout.steps.map((step, index) => [step, index]));
  const height = axisHeight + layout.steps.length * rowHeight + 4;
  const ticks = niceTicks(spanMs);
  return (
    <figure class="timeline" data-testid="timeline">
      {/*
        The chart keeps a width of at least 600 px, so zooming in makes its words larger, not smaller; where the
        page is narrower it scrolls sideways, by keyboard too. A screen reader hears it named as an
        image whose words are in the table after it.
      */}
      <div class="timeline-scroll" tabIndex={0} role="img" aria-label="Timeline chart; the table that follows gives the same times">
        <svg viewBox={`0 0 ${labelWidth + chartWidth + 40} ${height}`} aria-hidden="true">
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
              width={Math.max(minimumBarWidth, (bar.durationMs / spanMs) * chartWidth)}
              height={rowHeight - 8 - 2 * inset(bar)}
              rx={2}
            >
              <title>{`Step ${bar.step} · ${bar.label} · ${formatDuration(bar.durationMs)}`}</title>
            </rect>
          ))}
        </svg>
      </div>
      <TimelineTable layout={layout} />
      <TimelineLegend />
    </figure>
  );
}

function TimelineLegend() {
  return (
    <figcaption class="timeline-legend">
      {/* In the order of the sums under the chart. */}
      {(['model', 'tool', 'wait', 'between'] as const).map((kind) => (
        <span key={kind} class="legend-item">
          <span class={`legend-swatch bar-${kind}`} />
          {timelineKindNames[kind]}
        </span>
      ))}
    </figcaption>
  );
}

function inset(bar: TimelineBar): number {
  return bar.kind === 'tool' ? toolBarInset : 0;
}

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
