import type { Failure } from './describe-failure';

export function FailureBox({ failure }: { failure: Failure | undefined }) {
  if (!failure) return null;
  return (
    <div class="notice tone-error" role="alert">
      {failure.message}
      {failure.hint && <p class="hint">{failure.hint}</p>}
    </div>
  );
}
