// Every size shown to a person is worded here. Each function's name says the unit it takes.

const bytesPerMegabyte = 1024 * 1024;

/** "1.2 GB", "340 MB": sizes as a person reads them (1 GB = 1,024 MB, as Chrome counts). */
export function formatBytes(bytes: number): string {
  const megabytes = bytes / bytesPerMegabyte;
  if (megabytes >= 1024) return `${(megabytes / 1024).toFixed(1)} GB`;
  if (megabytes >= 1) return `${Math.round(megabytes)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** As `formatBytes`, from a figure in megabytes (the model catalog's unit). */
export function formatSizeFromMegabytes(megabytes: number): string {
  return formatBytes(megabytes * bytesPerMegabyte);
}

/**
 * "50.3 MB", "0.2 MB": to a tenth of a megabyte, so a file just over a size limit never reads as
 * the limit itself.
 */
export function formatBytesToTenthMegabyte(bytes: number): string {
  return `${Math.round((bytes / bytesPerMegabyte) * 10) / 10} MB`;
}

/** "1,100": whole megabytes with no unit, for "412 of 1,100 MB". */
export function megabyteCount(bytes: number): string {
  return Math.round(bytes / bytesPerMegabyte).toLocaleString('en-US');
}
