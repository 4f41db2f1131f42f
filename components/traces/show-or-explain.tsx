import type { ComponentChildren } from 'preact';
import { useErrorBoundary } from 'preact/hooks';
import { errorMessage } from '@/lib/messaging/error-message';

/**
 * Shows `children`, or `fallback` with the error if drawing them throws: one damaged record (an
 * older import, a store another version wrote) must never blank the viewer or hide other runs.
 * Give it a `key` per record, so that the next record is tried afresh.
 */
export function ShowOrExplain({ fallback, children }: { fallback: (message: string) => ComponentChildren; children: ComponentChildren }) {
  const [error] = useErrorBoundary((caught: unknown) => console.warn('The trace viewer could not show a record:', caught));
  if (error === undefined) return <>{children}</>;
  return <>{fallback(errorMessage(error))}</>;
}
