import type { ToolOutput } from '@webmcp-agents/chat';
import { formatToolText } from '@/lib/text/format-tool-text';
import type { RunState } from './hand-runs';
import { browserHidesError } from '@/lib/webmcp/hidden-tool-error';
import { JsonText } from '@/components/shared/json-text';
import type { LoadedPage } from '@/lib/webmcp/read-page-result';
import { PageResultView } from './page-result';

/**
 * A run's outcome: the result (JSON pretty-printed; for a form that loaded its result page, what
 * that page gives) or the error, the time it took, and whether the result matches the tool's
 * output schema where it has one. Only its first line is announced (a long result read aloud
 * would drown everything else), with a mismatch, or an error's first line, which says what went
 * wrong, from a region that stays in the page: one added with its words already in it is often not
 * read at all.
 */
export function RunResult({ run }: { run: RunState | undefined }) {
  const output = run?.running ? undefined : run?.output;
  const meta = run?.running ? 'Running…' : output ? `${outcomeOf(output, run?.pageResult)}${run?.durationMs !== undefined ? ` · took ${run.durationMs} ms` : ''}` : '';
  const check = output ? run?.resultCheck : undefined;
  // The card shows the tool as it is now: a result of the one it replaced is not that tool's.
  const changed = output !== undefined && run?.changedWhileRunning === true;
  return (
    <>
      <p class="visually-hidden" role="status">
        {check && !check.matches ? `${meta} · does not match the output schema` : output?.isError ? `${meta}: ${firstLine(output.text)}` : meta}
      </p>
      {run?.running && (
        <p class="run-status" aria-hidden="true">
          Running…
        </p>
      )}
      {output && (
        <div class={output.isError ? 'run-result error' : 'run-result'}>
          <p class="run-meta" aria-hidden="true">
            {meta}
          </p>
          {changed && (
            <p class="run-changed finding warning" data-testid="run-tool-changed">
              The page changed {run?.name} while this ran (what it does, its parameters or its hints): this is what the tool as it was before answered.
            </p>
          )}
          {run?.pageResult ? <PageResultView pageResult={run.pageResult} /> : <pre class="run-text" role="group" aria-label={`Result of ${run?.name ?? 'the run'}`}><JsonText text={formatToolText(output.text)} /></pre>}
          {check && (
            <p class={check.matches ? 'run-check muted' : 'run-check finding warning'}>
              {!check.matches && <span class="finding-level">Warning: </span>}
              {check.message}
            </p>
          )}
          {output.isError && browserHidesError(output.text) && (
            <p class="run-tip">
              Chrome does not pass on why the tool failed: it threw, or it returned something JSON cannot hold (a
              cycle, a BigInt). The page's Console, in this DevTools window, shows which. The agent is not told
              either; to tell it why, return <code>{'{ content: [{ type: "text", text: "…" }], isError: true }'}</code>{' '}
              instead of throwing.
            </p>
          )}
        </div>
      )}
    </>
  );
}

/** An error's first line, cut where a page made it long. */
function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * A run's outcome in a word: a call whose page went answers through the page it loaded, where that
 * page gives a result; a script's tool gave none before a new page loaded.
 */
function outcomeOf(output: ToolOutput, pageResult: LoadedPage | undefined): string {
  if (output.isError) return 'Error';
  if (!output.noAnswer) return 'Result';
  return !pageResult ? 'No answer' : pageResult.byScript ? 'New page loaded' : 'Result';
}
