import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EngineStatus, Turn } from '@/lib/agent/session-state';
import { isServerEngine } from '@/lib/engines/engine-labels';
import { spokenAnswer } from '@/lib/sidepanel/spoken-answer';
import { useSaidOnce } from '@/components/shared/use-said-once';

/**
 * What a screen reader should hear about the run without looking for it: the model loading (a
 * first download takes minutes) and writing, a tool running, a call that waits for the person,
 * and how the request ended (the answer's words, or their start). One polite live region, off screen, that changes a few times a run:
 * loading is told by the quarter. Only what changes while the panel watches is said: a turn that
 * had already ended when it came into view (a tab switch, the panel opening) stays silent. What
 * the model is doing at a step (waiting for the server, writing) is said only once it has gone on
 * for a moment: a quick step would say both, milliseconds apart, at every step of every run.
 */
export function RunAnnouncer({ turn, engine }: { turn: Turn | undefined; engine: EngineStatus | undefined }) {
  const heard = useRef<{ turnId?: string; text: string; shown: string; said: number }>({ text: '', shown: '', said: 0 });
  // Worked out again only when the turn or the engine changes, not at every render of the panel.
  const next = useMemo(() => (turn ? announcementFor(turn, engine) : { text: '' }), [turn, engine]);
  // Each stretch of the same words is one: "Waiting for the server…" at the next step is another.
  const stretch = useRef({ text: '', id: 0 });
  if (next.text !== stretch.current.text) stretch.current = { text: next.text, id: stretch.current.id + 1 };
  const stretchId = stretch.current.id;
  // The stretch of a passing state that has lasted (see passingHeldMs).
  const [lasted, setLasted] = useState(0);
  useEffect(() => {
    if (!next.passing) return undefined;
    const timer = setTimeout(() => setLasted(stretchId), passingHeldMs);
    return () => clearTimeout(timer);
  }, [stretchId, next.passing]);
  const last = heard.current;
  // Until then the words heard last stand (none, for a turn just begun).
  const text = next.passing && lasted !== stretchId ? (turn?.id === last.turnId ? last.text : '') : next.text;
  if (turn?.id !== last.turnId) {
    heard.current = { turnId: turn?.id, text, shown: turn && !turn.outcome ? text : '', said: last.said + 1 };
  } else if (text !== last.text) {
    heard.current = { ...last, text, shown: text, said: last.said + 1 };
  }
  // Once said, the words go: a screen reader reading the panel afterwards would otherwise hear
  // them twice (the answer in the conversation, then again here).
  const { shown, said } = heard.current;
  const words = useSaidOnce(shown, said);
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="announcement">
      {words}
    </p>
  );
}

/** How long the model's state at a step lasts before it is said: a wait a person would notice. */
const passingHeldMs = 1_500;

/** What to say, and whether it is only the model's state at a step (`passing`), said once it lasts. */
interface Announcement {
  text: string;
  passing?: true;
}

function announcementFor(turn: Turn, engine: EngineStatus | undefined): Announcement {
  const waiting = turn.items.find((item) => item.kind === 'tool' && item.state === 'waiting');
  if (waiting?.kind === 'tool') return { text: `${waiting.title ?? waiting.name}${waiting.origin ? `, from ${waiting.origin},` : ''} waits for your approval.` };
  if (!turn.outcome) return runningAnnouncement(turn, engine);
  // The answer itself, or its start: the person should not have to look for it.
  if (turn.outcome === 'answer') return { text: spokenAnswer(turn) };
  return { text: turn.notice ?? '' };
}

function runningAnnouncement(turn: Turn, engine: EngineStatus | undefined): Announcement {
  const text = runningWords(turn, engine);
  return engine?.state === 'generating' && text !== '' && !engine.progressText && !toolWords(turn) ? { text, passing: true } : { text };
}

/** What is said of the run's last call, where it has just changed. */
function toolWords(turn: Turn): string | undefined {
  const last = turn.items.at(-1);
  if (last?.kind !== 'tool') return undefined;
  // A question that ended without the person, and the call runs: said why, or their buttons would just vanish.
  if (last.state === 'running' && last.allowedBecause) return `${last.title ?? last.name} runs without your answer here: ${last.allowedBecause}.`;
  // Said once the page has the call: before, it is checked, and may have to wait for the person.
  if (last.state === 'running' && last.sent) return `Running ${last.title ?? last.name}…`;
  // A question that ended without the person: said, or their buttons would just vanish.
  if (last.withdrawn) return `${last.title ?? last.name} did not run: the page changed or removed it.`;
  return undefined;
}

function runningWords(turn: Turn, engine: EngineStatus | undefined): string {
  if (engine?.state === 'loading') {
    // Another tab's run, or the model itself: the engine's own words say which.
    if (engine.progress === undefined) return engine.progressText ?? 'Loading the model…';
    const quarter = Math.min(3, Math.floor(engine.progress * 4)) * 25;
    return quarter === 0 ? 'Loading the model…' : `Loading the model: ${quarter} %.`;
  }
  const called = toolWords(turn);
  if (called) return called;
  // A reply that waits for another tab's: the engine's own words say so.
  if (engine?.state === 'generating' && engine.progressText) return engine.progressText;
  // Nothing of the reply yet: the status line counts the wait (see FirstWordWait).
  if (engine?.state === 'generating' && engine.thinking) return 'The model is thinking…';
  if (engine?.state === 'generating' && engine.firstWordSince !== undefined) return isServerEngine(engine.engineId) ? 'Waiting for the server…' : 'Reading the prompt…';
  if (engine?.state === 'generating') return 'The model is writing…';
  return '';
}
