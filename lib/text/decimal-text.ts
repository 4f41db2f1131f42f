/**
 * A number as a person (or a model) reads it: in plain decimals where JavaScript would write an
 * exponent (`0.0000001`, not `1e-7`), as long as the decimals say it exactly; else as JavaScript does.
 */
export function decimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text) || !Number.isFinite(value)) return text;
  const decimals = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  return Number(decimals) === value ? decimals : text;
}
