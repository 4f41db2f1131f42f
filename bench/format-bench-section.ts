import type { BenchSection } from './bench-section';

/** A section as a Markdown table under its title, notes below, for a terminal or a results file. */
export function formatBenchSection(section: BenchSection): string {
  const columns = [...new Set(section.rows.flatMap((row) => Object.keys(row)))];
  const lines = [`## ${section.title}`, ''];
  if (columns.length > 0) {
    lines.push(`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`);
    for (const row of section.rows) {
      lines.push(`| ${columns.map((column) => formatCell(row[column])).join(' | ')} |`);
    }
    lines.push('');
  }
  for (const note of section.notes ?? []) lines.push(`- ${note}`);
  return lines.join('\n');
}

function formatCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  return value.replaceAll('|', '\\|');
}
