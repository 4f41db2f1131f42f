import type { Failure } from '@/lib/engines/describe-failure';

/**
 * A failure, said once as it comes; `id` lets the field it is about be described by it. One the page
 * found by itself (`unprompted`) is no alert: its caller puts it in a status region, said politely.
 */
export function FailureBox({ failure, id }: { failure: Failure | undefined; id?: string }) {
  if (!failure) return null;
  return (
    <div class="notice tone-error" role={failure.unprompted ? undefined : 'alert'} id={id}>
      {failure.message}
      {failure.hint && <p class="hint">{failure.hint}</p>}
    </div>
  );
}
