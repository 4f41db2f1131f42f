import type { EngineLoadProgress } from '@/lib/engines/engine';

export function ProgressBar({ progress }: { progress: EngineLoadProgress }) {
  return (
    <div class="progress" data-testid="progress">
      <progress max={1} value={progress.fraction} />
      <span>{progress.text}</span>
    </div>
  );
}
