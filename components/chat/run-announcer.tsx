import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EngineStatus, Turn } from '@/lib/agent/session-state';
import { isServerEngine } from '@/lib/engines/engine-labels';
import { spokenAnswer } from '@/lib/sidepanel/spoken-answer';

/**
 * What a screen reader should hear about the run without looking for it: the model loading (a
 * first download takes minutes) and writing, a tool running, a call that waits for the person,
 * and how the request ended (the answer's words, or their start). One polite live region, off screen, that changes a few times a run:
 * loading is told by the quarter. Only what changes while the panel watches is said: a turn that
 * had already ended when it came into view (a tab switch, the panel opening) stays silent.
 */
export function RunAnnouncer({ turn, engine }: { turn: Turn | undefined; engine: EngineStatus | undefined }) {
  const heard = useRef<{ turnId?: string; text: string; shown: string; said: number }>({ text: '', shown: '', said: 0 });
  // Worked out again only when the turn or the engine changes, not at every render of the panel.
  const text = useMemo(() => (turn ? announcementFor(turn, engine) : ''), [turn, engine]);
  const last = heard.current;
  if (turn?.id !== last.turnId) {
    heard.current = { turnId: turn?.id, text, shown: turn && !turn.outcome ? text : '', said: last.said + 1 };
  } else if (text !== last.text) {
    heard.current = { ...last, text, shown: text, said: last.said + 1 };
  }
  // Once said, the words go: a screen reader reading the panel afterwards would otherwise hear
  // them twice (the answer in the conversation, then again here).
  const { shown, said } = heard.current;
  const [spoken, setSpoken] = useState(0);
  useEffect(() => {
    if (!shown) return undefined;
    const timer = setTimeout(() => setSpoken(said), announcementKeptMs);
    return () => clearTimeout(timer);
  }, [said, shown]);
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="announcement">
      {spoken === said ? '' : shown}
    </p>
  );
}

/** Long enough for a screen reader to have begun what it was given, which clearing it does not stop. */
const announcementKeptMs = 7_000;

function announcementFor(turn: Turn, engine: EngineStatus | undefined): string {
  const waiting = turn.items.find((item) => item.kind === 'tool' && item.state === 'waiting');
  if (waiting?.kind === 'tool') return `${waiting.name}${waiting.origin ? `, from ${waiting.origin},` : ''} waits for your approval.`;
  if (!turn.outcome) return runningAnnouncement(turn, engine);
  // The answer itself, or its start: the person should not have to look for it.
  if (turn.outcome === 'answer') return spokenAnswer(turn);
  return turn.notice ?? '';
}

function runningAnnouncement(turn: Turn, engine: EngineStatus | undefined): string {
  if (engine?.state === 'loading') {
    // Another tab's run, or the model itself: the engine's own words say which.
    if (engine.progress === undefined) return engine.progressText ?? 'Loading the model…';
    const quarter = Math.min(3, Math.floor(engine.progress * 4)) * 25;
    return quarter === 0 ? 'Loading the model…' : `Loading the model: ${quarter} %.`;
  }
  const last = turn.items.at(-1);
  // A question that ended without the person, and the call runs: said why, or their buttons would just vanish.
  if (last?.kind === 'tool' && last.state === 'running' && last.allowedBecause) return `${last.name} runs without your answer here: ${last.allowedBecause}.`;
  // Said once the page has the call: before, it is checked, and may have to wait for the person.
  if (last?.kind === 'tool' && last.state === 'running' && last.sent) return `Running ${last.name}…`;
  // A question that ended without the person: said, or their buttons would just vanish.
  if (last?.kind === 'tool' && last.withdrawn) return `${last.name} did not run: the page changed or removed it.`;
  // A reply that waits for another tab's: the engine's own words say so.
  if (engine?.state === 'generating' && engine.progressText) return engine.progressText;
  // Nothing of the reply yet: the status line counts the wait (see FirstWordWait).
  if (engine?.state === 'generating' && engine.thinking) return 'The model is thinking…';
  if (engine?.state === 'generating' && engine.firstWordSince !== undefined) return isServerEngine(engine.engineId) ? 'Waiting for the server…' : 'Reading the prompt…';
  if (engine?.state === 'generating') return 'The model is writing…';
  return '';
}
