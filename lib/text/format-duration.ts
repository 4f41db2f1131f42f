/** A duration as a person reads it: "120 ms", "3.4 s", "2 min 5 s", "2 h 1 min". */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '';
  // Each unit up to where its rounding would say the next one ("1000 ms", "60.0 s").
  if (Math.round(milliseconds) < 1_000) return `${Math.round(milliseconds)} ms`;
  if (Math.round(milliseconds / 100) < 600) return `${(milliseconds / 1_000).toFixed(1)} s`;
  const seconds = Math.round(milliseconds / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(milliseconds / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
