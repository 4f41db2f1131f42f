import { useEffect, useMemo, useRef, useState, type MutableRef } from 'preact/hooks';
import { HiddenCharacters } from '@/components/shared/json-text';
import type { EngineId } from '@/lib/engines/engine';
import { engineLabels } from '@/lib/engines/engine-labels';
import { findCatalogModel, modelLabel } from '@/lib/engines/model-catalog';
import { formatDuration } from '@/lib/text/format-duration';
import { formatMoment, outcomeLabel } from '@/lib/traces/describe-trace';
import type { Divergence } from '@/lib/traces/divergence-schema';
import { layoutTimeline } from '@/lib/traces/timeline-layout';
import type { StoredTrace, TraceOutcome } from '@/lib/traces/trace-schema';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { SafeAnswer } from '@/components/shared/safe-answer';
import { deleteFromList, useDeleteQuestion } from './delete-question';
import { ReplayPanel } from './replay-panel';
import { RunAnswer } from './run-answer';
import { ShowOrExplain } from './show-or-explain';
import { StepView } from './step-view';
import { TimelineChart, TimelineTotals } from './timeline-chart';

/** One run: what was asked where, how it ended, its timeline, its steps, and its replay. */
/**
 * `arrival`: the run the page's address opened (a side panel's Trace link), until its heading has
 * taken the focus as it first showed.
 */
export function RunDetail({ model, arrival }: { model: TraceViewerModel; arrival?: MutableRef<string | undefined> }) {
  const trace = model.openTrace.value;
  const readError = model.openError.value;
  if (readError !== undefined) return <UnreadRun model={model} message={readError} />;
  if (trace === undefined) return <p class="muted detail-empty">Loading the run…</p>;
  if (trace === null) {
    return (
      <p class="muted detail-empty" data-testid="run-missing">
        This run is not stored: it was deleted, or the retention limit removed it.
      </p>
    );
  }
  // The run chosen is still being read: the one before is not shown under its name (nor its fault,
  // nor a Delete that would take the new one).
  const runId = model.openRunId.value ?? '';
  if (String(trace.run.id) !== runId) return <p class="muted detail-empty">Loading the run…</p>;
  // Keyed by run: a confirmation, the steps opened or a fault shown for one run never carry over to the next.
  return (
    <ShowOrExplain key={runId} fallback={() => <UnreadableRun model={model} runId={runId} />}>
      <TraceDetail model={model} trace={trace} arrival={arrival?.current === runId ? arrival : undefined} />
    </ShowOrExplain>
  );
}

/** A run that could not be read (the background not answering) says why, and offers to read it again. */
function UnreadRun({ model, message }: { model: TraceViewerModel; message: string }) {
  const runId = model.openRunId.value ?? '';
  return (
    <div class="detail-empty" data-testid="run-unread">
      <p class="notice tone-error" role="alert">{`This run could not be read: ${message}`}</p>
      <button type="button" data-testid="read-run-again" onClick={() => void model.open(runId)}>
        Read it again
      </button>
    </div>
  );
}

/** A run whose record cannot be drawn says so (the console says what failed), and can still be exported or deleted. */
function UnreadableRun({ model, runId }: { model: TraceViewerModel; runId: string }) {
  return (
    <article class="run-detail" data-testid="run-unreadable" data-run-id={runId}>
      <p class="notice tone-error">
        This run could not be shown: its record is damaged, or was written by another version of the extension. It can still be exported or deleted.
      </p>
      <RunActions model={model} runId={runId} running={false} />
    </article>
  );
}

function TraceDetail({ model, trace, arrival }: { model: TraceViewerModel; trace: StoredTrace; arrival?: MutableRef<string | undefined> }) {
  const { run, steps } = trace;
  const title = useArrivalFocus(arrival);
  const layout = useMemo(() => layoutTimeline(trace), [trace]);
  // A run of one step opens it; a live run's first step stays as the person left it when more come.
  const [openFirstStep] = useState(steps.length === 1);
  const replay = model.replay.value;
  const divergences: readonly Divergence[] = replay.status === 'done' ? replay.divergences : [];
  return (
    <article class="run-detail" data-testid="run-detail" data-run-id={run.id} data-outcome={run.outcome ?? 'running'}>
      <header class="run-header">
        {/* A request may come from a file, or have been pasted: what draws nothing shows by its code. */}
        <h2 data-testid="run-title" dir="auto" tabIndex={-1} ref={title}>
          <HiddenCharacters text={run.request || '(empty request)'} />
        </h2>
        <dl class="run-facts">
          <Fact label="Outcome" testId="run-outcome">
            {outcomeLabel(run.outcome)}
          </Fact>
          <Fact label="Page" testId="run-url">
            {run.url || run.origin || '(unknown)'}
          </Fact>
          <Fact label="Engine" testId="run-engine">
            {engineAndModel(run.engineId, run.model)}
          </Fact>
          <Fact label="Started">{formatMoment(run.startedAt)}</Fact>
          {run.importedAt !== undefined && (
            <Fact label="Imported" testId="run-imported-from" wide>
              {`${formatMoment(run.importedAt)}, from a file: not recorded in this browser.`}
            </Fact>
          )}
          <Fact label="Took">{run.endedAt !== undefined ? formatDuration(run.endedAt - run.startedAt) : 'not ended'}</Fact>
          {run.notice && (
            <Fact label="The panel said" testId="run-notice" wide>
              {run.notice}
            </Fact>
          )}
          {run.error && (
            <Fact label="Error" wide>
              {`${run.error.name}: ${run.error.message}`}
            </Fact>
          )}
        </dl>
        {run.answer && (
          <>
            <p class="run-answer-label" data-testid="run-answer-label">
              {answerLabel(run.outcome)}
            </p>
            <RunAnswer text={run.answer} />
          </>
        )}
        <RunActions model={model} runId={run.id} running={run.outcome === undefined} />
      </header>
      <h2>Timeline</h2>
      <TimelineChart layout={layout} />
      <TimelineTotals layout={layout} />
      <ReplayPanel model={model} />
      <h2>Steps</h2>
      {steps.length === 0 && <p class="muted">No step was recorded.</p>}
      {steps.map((step, index) => (
        <StepView
          key={step.step}
          step={step}
          divergences={divergences.filter((divergence) => divergence.step === step.step)}
          open={openFirstStep && index === 0}
          endedWith={index === steps.length - 1 ? run.error?.message : undefined}
          writing={run.outcome === undefined && index === steps.length - 1}
        />
      ))}
    </article>
  );
}

/** `wide`: a sentence or more, given the whole row rather than a column. */
function Fact({ label, testId, wide, children }: { label: string; testId?: string; wide?: boolean; children: string }) {
  return (
    <div class={wide ? 'wide' : undefined}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function RunActions({ model, runId, running }: { model: TraceViewerModel; runId: string; running: boolean }) {
  const question = useDeleteQuestion();
  const remove = () => {
    question.close();
    return deleteFromList(model, [runId]);
  };
  return (
    <div class="run-actions">
      <button type="button" onClick={() => void model.exportRuns([runId])} data-testid="export-run">
        Export this run
      </button>
      {question.asking ? (
        <>
          <button type="button" class="danger" onClick={() => void remove()} data-testid="confirm-delete-run">
            Delete it
          </button>
          <SafeAnswer onClick={question.keep}>Keep it</SafeAnswer>
        </>
      ) : (
        <button
          type="button"
          ref={question.askButton}
          disabled={running}
          title={running ? 'A run is deleted once it has ended.' : undefined}
          onClick={question.ask}
          data-testid="delete-run"
        >
          Delete this run
        </button>
      )}
    </div>
  );
}

/** The engine and model as the side panel names them: a model of the catalogue by its name, with its id. */
function engineAndModel(engineId: string, model: string): string {
  const engine = engineLabels[engineId as EngineId] ?? engineId;
  const catalogued = findCatalogModel(model);
  return `${engine} · ${catalogued ? `${modelLabel(catalogued)} (${model})` : model || 'default model'}`;
}

/** What the text under the run's facts is: its answer, or what the model wrote before the run ended without one. */
function answerLabel(outcome: TraceOutcome | undefined): string {
  if (outcome === 'answer') return 'Answer';
  return outcome === undefined ? 'Written so far' : 'Written before the run ended, not an answer';
}

/**
 * The heading of the run a page was opened for takes the focus once, as it first shows, unless the
 * person has put the focus somewhere already: a keyboard or screen-reader user starts at the run
 * they came for, not ten stops before it.
 */
function useArrivalFocus(arrival: MutableRef<string | undefined> | undefined) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!arrival) return;
    arrival.current = undefined;
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus();
  }, [arrival]);
  return heading;
}
