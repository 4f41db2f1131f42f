import { replyTokensRange } from '@/lib/engines/engine';
import type { Settings } from '@/lib/settings';
import { NumberField } from './number-field';
import type { OptionsModel } from './options-model';

const confirmationHints: Record<Settings['confirmation'], string> = {
  'ask-unless-read-only':
    'A tool the page marks as only reading runs at once; any other waits for your Allow, unless you listed its site under Sites. One marked consequential always asks, and so does any tool of another site framed in the page; once the model has read one, your listed sites ask again for the rest of that chat.',
  'ask-always': 'Every tool waits for your Allow, even one that only reads.',
};

/** How the agent behaves: sampling, how long it may go on, when it asks, how much it reads. */
export function BehaviourSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  return (
    <section aria-labelledby="behaviour-heading">
      <h2 id="behaviour-heading">Behaviour</h2>
      <NumberField label="Temperature" value={settings.temperature} min={0} max={2} step={0.1} onChange={(temperature) => model.update({ temperature })} />
      <NumberField label="Maximum steps per request" place="max-steps" value={settings.maxSteps} min={1} max={30} step={1} onChange={(maxSteps) => model.update({ maxSteps })} />
      <label class="field">
        <span>Ask before a tool runs</span>
        {/* A closed list cannot wrap: short choices, and what the one picked means said under it. */}
        <select
          value={settings.confirmation}
          aria-describedby="confirmation-hint"
          onChange={(event) => void model.update({ confirmation: event.currentTarget.value as Settings['confirmation'] })}
        >
          <option value="ask-unless-read-only">When it may change the page</option>
          <option value="ask-always">Always</option>
        </select>
      </label>
      <p id="confirmation-hint" class="muted field-hint" data-testid="confirmation-hint">
        {confirmationHints[settings.confirmation]}
      </p>
      <NumberField
        label="Characters of a tool's output the model reads"
        place="tool-output"
        value={settings.toolOutputLimit}
        min={200}
        max={100_000}
        step={100}
        onChange={(toolOutputLimit) => model.update({ toolOutputLimit: Math.round(toolOutputLimit) })}
      />
      <NumberField
        label="Longest reply, in tokens"
        place="reply-tokens"
        value={settings.replyTokens}
        min={replyTokensRange.min}
        max={replyTokensRange.max}
        step={256}
        hint="A token is about three quarters of an English word. A reply that reaches this is cut off, and says so. The prompt keeps room for a reply this long (up to half of what the model reads at once), which leaves less for the page's tools and their results. Chrome's built-in model keeps a limit of its own."
        onChange={(replyTokens) => model.update({ replyTokens: Math.round(replyTokens) })}
      />
      <NumberField
        label="Seconds a tool may take before the run stops"
        place="tool-timeout"
        value={settings.toolTimeoutSeconds}
        min={1}
        max={600}
        step={1}
        onChange={(toolTimeoutSeconds) => model.update({ toolTimeoutSeconds })}
      />
      <label class="field">
        <span>How tools are ranked for the model</span>
        <select
          value={settings.ranker}
          onChange={(event) => void model.update({ ranker: event.currentTarget.value as Settings['ranker'] })}
        >
          {/* The methods' own names (fielded BM25, rankTools' word overlap) mean nothing to most people. */}
          <option value="fielded-bm25">Best match (recommended)</option>
          <option value="word-overlap">Simple word match</option>
        </select>
      </label>
    </section>
  );
}
