/** A duration as a person reads it: "120 ms", "3.4 s", "2 min 5 s". */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '';
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1_000).toFixed(1)} s`;
  const seconds = Math.round(milliseconds / 1_000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
