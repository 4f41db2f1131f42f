/** Past this many pairs of lines compared, no lines are marked: the table would take too long to fill. */
const mostPairs = 4_000_000;

/**
 * Which lines of `before` and of `after` are not in their longest common subsequence of lines:
 * what a replay's result changed, line by line, where a pretty-printed JSON result shows it. The
 * indexes of each; undefined where the texts are too long to compare.
 */
export function changedLines(before: readonly string[], after: readonly string[]): { before: Set<number>; after: Set<number> } | undefined {
  const rows = before.length;
  const columns = after.length;
  if (rows * columns > mostPairs) return undefined;
  // common[i][j]: the length of the longest common subsequence of before[i…] and after[j…], in one flat table.
  const width = columns + 1;
  const common = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      common[i * width + j] = before[i] === after[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const changed = { before: new Set<number>(), after: new Set<number>() };
  let i = 0;
  let j = 0;
  while (i < rows && j < columns) {
    if (before[i] === after[j]) {
      i += 1;
      j += 1;
    } else if (common[(i + 1) * width + j]! >= common[i * width + j + 1]!) changed.before.add(i++);
    else changed.after.add(j++);
  }
  for (; i < rows; i++) changed.before.add(i);
  for (; j < columns; j++) changed.after.add(j);
  return changed;
}
