import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesToTenthMegabyte, formatSizeFromMegabytes, megabyteCount } from '@/lib/text/format-bytes';

const megabyte = 1024 * 1024;

describe('size wording', () => {
  it('formatBytes words a byte count in KB, MB or GB', () => {
    expect(formatBytes(300)).toBe('1 KB');
    expect(formatBytes(340 * megabyte)).toBe('340 MB');
    expect(formatBytes(1.2 * 1024 * megabyte)).toBe('1.2 GB');
  });

  it('formatSizeFromMegabytes takes the catalog figure in megabytes', () => {
    expect(formatSizeFromMegabytes(990)).toBe('990 MB');
    expect(formatSizeFromMegabytes(1536)).toBe('1.5 GB');
  });

  it('formatBytesToTenthMegabyte keeps a tenth, so a file just over a limit does not read as the limit', () => {
    expect(formatBytesToTenthMegabyte(50 * megabyte)).toBe('50 MB');
    expect(formatBytesToTenthMegabyte(50.3 * megabyte)).toBe('50.3 MB');
    expect(formatBytesToTenthMegabyte(0.2 * megabyte)).toBe('0.2 MB');
  });

  it('megabyteCount gives whole megabytes with no unit, for "412 of 1,100 MB"', () => {
    expect(megabyteCount(1100 * megabyte)).toBe('1,100');
  });
});
