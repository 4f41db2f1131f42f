import { useCallback, useRef, useState } from 'preact/hooks';
import { useTypingPause } from '@/components/shared/use-typing-pause';
import { figure, plural } from '@/lib/text/plural';
import { traceAddress } from '@/lib/traces/trace-address';
import { AgentPreview } from './agent-preview';
import { ChangeLog } from './change-log';
import { DroppedTools } from './dropped-tools';
import type { LeftRun } from './hand-runs';
import type { InspectorModel } from './inspector-model';
import { toolKey } from './tool-key';
import { PageResultView } from './page-result';
import { TimeoutField } from './timeout-field';
import { ToolCard } from './tool-card';
import { useCardsInPasses } from './use-cards-in-passes';

/** The "WebMCP" devtools panel: the inspected tab's tools, as an agent gets them. */
export function InspectorApp({ model, copyText }: { model: InspectorModel; copyText: (text: string) => Promise<void> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const leftRunWords = useRef<HTMLParagraphElement>(null);
  // A card (or the preview) that held the focus went (the page took its tool away, or moved on): the
  // focus goes to what its run left said, or to the top, not to the page body.
  // A card that went as its tool did is said to have gone, where no run's words say more: the
  // focus moving to the top tells a screen reader nothing of why.
  const [cardLeftWords, setCardLeftWords] = useState('');
  const focusAfterCardLeft = useCallback((name?: string) => {
    setTimeout(() => {
      const runWords = Boolean(leftRunWords.current?.textContent);
      if (!runWords) setCardLeftWords(name === undefined ? 'The page took its last tool away.' : `The page took “${name}” away.`);
      (runWords ? leftRunWords.current : heading.current)?.focus();
    });
  }, []);
  const tabTools = model.tabTools.value;
  const tools = model.tools.value;
  return (
    <main class="inspector">
      <header class="inspector-header">
        <h1 ref={heading} tabIndex={-1}>
          WebMCP tools
        </h1>
        <span class="tool-count">{tools.length === 1 ? '1 tool' : `${tools.length} tools`}</span>
        {tabTools && <PageAddress url={tabTools.url} />}
        <span class="connection" role="status">
          {model.connected.value ? '' : 'Reconnecting to the extension…'}
        </span>
        <TimeoutField model={model} />
        <button type="button" class="button" disabled={!tabTools} onClick={() => void model.copyToolList(copyText)}>
          Copy as JSON
        </button>
        <span class="copy-status" role="status">
          {model.copyStatus.value}
        </span>
      </header>
      {tabTools === undefined && <p class="muted">Reading the tab's tools…</p>}
      {tabTools !== undefined && tools.length === 0 && (
        <p class="empty">
          This tab offers no WebMCP tools.{' '}
          {/* A page seen with tools took them away itself: no reload would help. */}
          {model.mayNeedReload.value && (
            <span class="muted">A page open since before the extension was installed or updated needs a reload first.</span>
          )}
        </p>
      )}
      {tabTools !== undefined && tools.length === 0 && (
        <p class="muted" data-testid="no-tools-hint">
          A page adds tools with <code>document.modelContext.registerTool(…)</code> or a form marked <code>&lt;form toolname="…"&gt;</code>;
          they show here as it adds them. One the browser itself refused to register (a name taken twice, a schema it cannot
          read) never reaches the extension: the page's Console says why.
        </p>
      )}
      <p class="visually-hidden" role="status" data-testid="card-left-status">
        {cardLeftWords}
      </p>
      {/* In the page from the start, so that a result arriving in it is read. */}
      <p class="left-run" role="status" ref={leftRunWords} tabIndex={-1}>
        {model.leftRun.value && <LeftRunWords {...model.leftRun.value} />}
      </p>
      {model.leftRun.value?.pageResult && (
        <div class="run-result">
          <PageResultView pageResult={model.leftRun.value.pageResult} />
        </div>
      )}
      {tools.length > 0 && <AgentPreview model={model} onLeftWithFocus={focusAfterCardLeft} />}
      <ChangeLog changes={model.changes.value} total={model.changeCount.value} />
      <section class="tools" aria-labelledby="tools-heading">
        <h2 id="tools-heading" class="visually-hidden">
          Tools
        </h2>
        {filterShown(model) && <ToolFilter model={model} />}
        <ToolCards model={model} onLeftWithFocus={focusAfterCardLeft} />
      </section>
      <DroppedTools dropped={tabTools?.dropped ?? []} />
    </main>
  );
}

/** The cards of the tools shown, drawn a pass at a time: a pass draws them, not the rest of the page. */
function ToolCards({ model, onLeftWithFocus }: { model: InspectorModel; onLeftWithFocus: (name: string) => void }) {
  const cards = useCardsInPasses(model.shownTools.value);
  const findings = model.findingsByTool.value;
  return (
    <>
      {cards.map((tool) => (
        <ToolCard key={toolKey(tool)} model={model} tool={tool} findings={findings.get(toolKey(tool))} onLeftWithFocus={onLeftWithFocus} />
      ))}
    </>
  );
}

/** A list longer than this gets a filter. */
const filterFrom = 8;

// A filter in effect, or being typed, stays in sight, even once the list is short, so what it hides can be seen and cleared.
const filterShown = (model: InspectorModel) =>
  model.tools.value.length > filterFrom || model.filter.value !== '' || model.filterTyped.value !== undefined || model.onlyWithNotes.value;

/**
 * Narrows a long list of tools: by words of their name, title or description (once typing pauses:
 * each key would redraw hundreds of cards), or to those with notes.
 */
function ToolFilter({ model }: { model: InspectorModel }) {
  const { typed, onInput } = useTypingPause((text) => (model.filter.value = text), model.filterTyped);
  const withNotes = model.tools.value.filter((tool) => model.findingsByTool.value.get(toolKey(tool))?.length).length;
  const shown = model.shownTools.value.length;
  return (
    <div class="tool-filter">
      <label class="field grow">
        <span>Filter</span>
        <input
          type="search"
          placeholder="Name, title or description"
          data-testid="tool-filter"
          value={typed ?? model.filter.value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      </label>
      {(withNotes > 0 || model.onlyWithNotes.value) && (
        <label class="check">
          <input type="checkbox" data-testid="only-with-notes" checked={model.onlyWithNotes.value} onChange={(event) => (model.onlyWithNotes.value = event.currentTarget.checked)} />
          {withNotes === 0 ? 'Only tools with notes (none has any now)' : `Only the ${withNotes === 1 ? 'tool' : `${withNotes} tools`} with notes`}
        </label>
      )}
      <span class="muted" role="status" data-testid="tool-filter-count">
        {filterCount(shown, model.tools.value.length, model.filter.value.trim() !== '' || model.onlyWithNotes.value)}
      </span>
    </div>
  );
}

/**
 * The result of a run that ended as its page went: its card, in the old document, is gone. A
 * result the new page gives is shown below it, outside the announced words.
 */
function LeftRunWords({ name, frameId, output, pageResult, removedByPage }: LeftRun) {
  if (removedByPage) {
    return (
      <>
        The page took <span class="change-name">{name}</span> away while it ran; it {output.isError ? 'failed' : output.noAnswer ? 'gave no answer' : 'answered'}: {shortened(output.text)}
      </>
    );
  }
  // The person pressed Run here, and the page went before the tool answered: that much is known,
  // not who made it go (the tool, a script, or the person).
  if (!pageResult && output.noAnswer) {
    return (
      <>
        <span class="change-name">{name}</span> was still running when{' '}
        {frameId === 0 ? 'the page navigated or reloaded' : 'the frame that offered it navigated, reloaded or was removed'}, so no result came back.
      </>
    );
  }
  // A script's tool, unlike a form, may not be what made the page go: a reload by the person looks the same.
  if (pageResult?.byScript) {
    return (
      <>
        <span class="change-name">{name}</span> was still running when the tab loaded the page below, so no result came back.
      </>
    );
  }
  const said = !pageResult
    ? shortened(output.text)
    : pageResult.data === undefined
        ? 'its form was sent, and loaded the page below.'
        : 'it loaded a page that gives its result (below).';
  return (
    <>
      <span class="change-name">{name}</span> ran as the page changed{output.isError ? ' and failed' : ''}: {said}
    </>
  );
}

/** How many tools the filter shows; while one is set, also where it matches them all, so the person sees it took. */
function filterCount(shown: number, total: number, filtering: boolean): string {
  if (shown !== total) return `${figure(shown)} of ${plural(total, 'tool')} shown`;
  if (!filtering) return '';
  return total === 1 ? 'The one tool matches' : `All ${figure(total)} tools match`;
}

/** A result told in the status line is cut to 300 characters: its whole text is not on a card. */
function shortened(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * The inspected page's address, without its query string and fragment (a session token there would
 * fill the header, and show in a screenshot of the panel): "…" says it was cut, and pointed at, it
 * shows whole.
 */
function PageAddress({ url }: { url: string }) {
  const kept = traceAddress(url);
  return (
    <span class="tab-url" data-testid="page-address" title={kept === url ? undefined : url}>
      {kept === url ? url : `${kept}…`}
    </span>
  );
}
