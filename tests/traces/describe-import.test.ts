import { describe, expect, it } from 'vitest';
import { describeImport, describeRemovalAhead } from '../../lib/traces/describe-export';

describe('describeImport', () => {
  it('says how many runs a file brought, and which of them were here already', () => {
    expect(describeImport({ imported: 3, replaced: 0, unchanged: 0, kept: 0 })).toBe('Imported 3 runs.');
    expect(describeImport({ imported: 3, replaced: 1, unchanged: 1, kept: 0 })).toBe('Imported 3 runs. 1 of them was already here, as the file has it.');
    expect(describeImport({ imported: 2, replaced: 2, unchanged: 0, kept: 1 })).toBe('Imported 2 runs. Both were already here, and the file’s copies took their place. 1 run was already here, newer than in the file, and was kept as it is.');
  });

  it('says a file imported again brought nothing new, rather than that it imported its runs', () => {
    expect(describeImport({ imported: 1, replaced: 1, unchanged: 1, kept: 0 })).toBe('Nothing new: the file’s run is here already, as the file has it.');
    expect(describeImport({ imported: 6, replaced: 6, unchanged: 6, kept: 0 })).toBe('Nothing new: the file’s 6 runs are all here already, as the file has them.');
    expect(describeImport({ imported: 0, replaced: 0, unchanged: 0, kept: 2 })).toBe('Nothing new: the file’s 2 runs are both here already, newer than in the file, and were kept as they are.');
    expect(describeImport({ imported: 4, replaced: 4, unchanged: 4, kept: 1 })).toBe('Nothing new: the file’s 5 runs are all here already, 4 as the file has them and 1 newer, kept as it is.');
  });

  it('writes the counts of a large import with their thousands parted, as the viewer writes its other figures', () => {
    expect(describeImport({ imported: 3_000, replaced: 1_200, unchanged: 0, kept: 1_500 })).toBe(
      'Imported 3,000 runs. 1,200 of them were already here, and the file’s copies took their place. 1,500 runs were already here, newer than in the file, and were kept as they are.',
    );
    const runs = Array.from({ length: 3_000 }, (_, index) => ({ id: `r${index}`, startedAt: index, sizeBytes: 1, outcome: 'answer' }));
    expect(describeRemovalAhead(runs, { maxRuns: 200, maxMegabytes: 1_000 })).toBe(' Only the last 200 runs are kept: when the next run ends, the 2,801 oldest runs here will be removed to make room for it, unless you raise the limit below.');
  });
});
