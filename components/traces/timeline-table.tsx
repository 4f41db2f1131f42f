import { formatDuration } from '@/lib/text/format-duration';
import type { TimelineLayout } from '@/lib/traces/timeline-layout';

export const timelineKindNames = { model: 'Model', tool: 'Tool', wait: 'Waiting for you', between: 'Before the reply' } as const;

/**
 * The chart's bars as a table a screen reader can read: the chart shows each part's time only by
 * where its bar falls, and a hover title inside an image that a screen reader cannot reach.
 */
export function TimelineTable({ layout }: { layout: TimelineLayout }) {
  // A table ignores the width and height that hide it: the wrapper hides it instead.
  return (
    <div class="visually-hidden">
      <table data-testid="timeline-table">
        <caption>Timeline of the run, each part of each step, its times counted from the start of the run</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Part</th>
            <th scope="col">What</th>
            <th scope="col">Starts at</th>
            <th scope="col">Takes</th>
          </tr>
        </thead>
        <tbody>
          {layout.bars.map((bar, index) => (
            <tr key={index} data-testid="timeline-row">
              <td>{bar.step}</td>
              <td>{timelineKindNames[bar.kind]}</td>
              <td>{bar.label}</td>
              <td>{formatDuration(bar.startMs)}</td>
              <td>{formatDuration(bar.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
