import { useLayoutEffect, useRef } from 'preact/hooks';
import { formatScore } from '@/lib/text/format-score';
import { siteLabel } from '@/lib/text/site-label';
import { plural } from '@/lib/text/plural';
import type { AgentPreviewModel, InspectorModel } from './inspector-model';
import { HiddenCharacters } from '@/components/shared/json-text';

/**
 * "What would the agent see": the tools `rankTools` would show a small model for a request. It goes
 * with the page's last tool: where it held the focus, `onLeftWithFocus` puts it somewhere.
 */
export function AgentPreview({ model, onLeftWithFocus }: { model: InspectorModel; onLeftWithFocus?: () => void }) {
  const section = useRef<HTMLElement>(null);
  // Run before the section leaves the page: once it has, the focus is on the page body.
  useLayoutEffect(() => () => {
    if (section.current?.contains(document.activeElement)) onLeftWithFocus?.();
  }, []);
  const ranking = model.ranking.value;
  const best = Math.max(0, ...ranking.map(({ score }) => score));
  const matching = ranking.filter(({ score }) => score > 0).length;
  const note = ranking.length > 0 ? rankingNote(ranking.length, model.preview.value.ranked, model.agentTools.value.length, model.maxTools, matching) : '';
  const bestNames = ranking.filter(({ score }) => score > 0 && score === best).map(({ tool }) => tool.name);
  const offSite = model.agentOffSite.value;
  const off = offSite === undefined ? '' : `The agent is off on ${siteLabel(offSite)}, so it sees none of these tools. Were it on, it would see:`;
  return (
    <section class="agent-preview" aria-label="What would the agent see" ref={section}>
      <h2>What would the agent see?</h2>
      <input
        type="search"
        dir="auto"
        class="agent-query"
        placeholder="Type a request, e.g. add two mugs to the cart"
        aria-label="Request"
        value={model.query.value}
        onInput={(event) => (model.query.value = event.currentTarget.value)}
      />
      {/* Always in the page, so that a screen reader hears each new ranking as the request is typed. */}
      <span class="visually-hidden" role="status" data-testid="ranking-status">
        {note && `${off ? `${off} ` : ''}${note}${bestNames.length === 0 ? '' : ` Best ${bestNames.length === 1 ? 'match' : 'matches'}: ${bestNames.join(', ')}.`}`}
      </span>
      {ranking.length > 0 && (
        <>
          {off && (
            <p class="ranking-note agent-off-note" data-testid="agent-off-note">
              {off}
            </p>
          )}
          <p class="ranking-note" data-testid="ranking-note">
            {note}
          </p>
          <ol class="ranking">
            {ranking.map(({ tool, score }) => (
              <li key={tool.name} data-best={score > 0 && score === best ? '' : undefined}>
                <span class="ranking-name">
                  <HiddenCharacters text={tool.name} />
                </span>{' '}
                <span class="ranking-score">score {formatScore(score)}</span>
                {score > 0 && score === best && <span class="ranking-best"> · best match</span>}
                <div class="ranking-description" dir="auto">
                  <HiddenCharacters text={tool.description} />
                </div>
              </li>
            ))}
          </ol>
          <NotShown preview={model.preview.value} matched={best > 0} />
        </>
      )}
    </section>
  );
}

/**
 * The tools the agent would not see, best first with their scores: the answer to "why does the
 * agent not get my tool?", as a run's trace gives it. Those the ranking kept but the context had
 * no room for say so.
 */
function NotShown({ preview: { shown, notShownCount, notShown }, matched }: { preview: AgentPreviewModel; matched: boolean }) {
  if (notShownCount === 0) return null;
  const unlisted = notShownCount - notShown.length;
  return (
    <details class="not-shown" data-testid="not-shown">
      <summary>
        Not shown: {plural(notShownCount, 'tool')}
        {matched ? ', best first' : ", in the page's order"}
      </summary>
      <ol class="ranking" start={shown.length + 1}>
        {notShown.map(({ name, score, crowded }) => (
          <li key={name}>
            <span class="ranking-name">{name}</span> <span class="ranking-score">score {formatScore(score)}</span>
            {crowded && <span class="ranking-crowded"> · no room in the context</span>}
          </li>
        ))}
      </ol>
      {unlisted > 0 && <p class="ranking-note">And {unlisted} more, none scored above {formatScore(notShown.at(-1)!.score)}.</p>}
    </details>
  );
}

/**
 * Which of the tools the agent sees, and why the others are left out. Only those that share a word
 * with the request (`matching` of those shown, scored above 0) are matches: the rest fill the list
 * in the page's order.
 */
function rankingNote(shown: number, ranked: number, total: number, max: number, matching: number): string {
  const crowded = ranked - shown;
  const leftOut = crowded > 0 ? ` ${crowded} more would crowd the default model's 4,096-token context, so the agent leaves ${crowded === 1 ? 'it' : 'them'} out.` : '';
  if (ranked < total && matching === 0) return `No tool matches these words, so the agent sees the first ${shown} of the ${total} tools, in the page's order.${leftOut}`;
  if (ranked < total && matching < shown) {
    const matches = matching === 1 ? 'The one tool that matches these words,' : `The ${matching} tools that match these words, best first,`;
    return `${matches} then ${shown - matching} more in the page's order: ${shown} of ${total} tools.${leftOut}`;
  }
  if (ranked < total) return `The ${shown} best matches of ${total} tools, best first.${leftOut}`;
  if (crowded > 0) return `${shown} of the ${total} tools, in the page's order.${leftOut}`;
  if (shown === 1) return 'The page offers one tool, and the agent sees it.';
  return `All ${shown} tools fit (the agent shows up to ${max}), so it sees them in the page's order.`;
}
