/** "1.2 GB", "340 MB": sizes as a person reads them (1 GB = 1,024 MB, as Chrome counts). */
export function formatBytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  if (megabytes >= 1024) return `${(megabytes / 1024).toFixed(1)} GB`;
  if (megabytes >= 1) return `${Math.round(megabytes)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Catalog figures are in megabytes. */
export function formatMegabytes(megabytes: number): string {
  return formatBytes(megabytes * 1024 * 1024);
}
