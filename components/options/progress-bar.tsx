import { useId } from 'preact/hooks';
import type { EngineLoadProgress } from '@/lib/engines/engine';

export function ProgressBar({ progress }: { progress: EngineLoadProgress }) {
  // The bar is named by its text, so that a screen reader says what is loading, not only how far.
  const textId = useId();
  return (
    <div class="progress" data-testid="progress">
      <progress max={1} value={progress.fraction} aria-labelledby={textId} />
      <span id={textId}>{progress.text}</span>
    </div>
  );
}
