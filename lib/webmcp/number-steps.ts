// What a number field's `step` lets through, which its type and `minimum` do not say.
import { decimalText } from '../text/decimal-text';

/**
 * The values a number or range field takes, as a schema says them: `multipleOf` where its steps
 * count from 0 (as JSON Schema's do), or in words where they count from elsewhere ("in steps of 25
 * from 10": HTML counts them from `min`, else from the field's `value` attribute). Nothing for a
 * field that takes any number, or for any other field.
 */
export function numberSteps(control: unknown): { multipleOf?: number; words?: string } {
  if (!isNumberField(control)) return {};
  const raw = control.getAttribute('step');
  if (raw?.trim().toLowerCase() === 'any') return {};
  const parsed = raw === null || raw.trim() === '' ? 1 : Number(raw);
  const step = Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
  const base = numberAttribute(control, 'min') ?? numberAttribute(control, 'value') ?? 0;
  const steps = base / step;
  // Past 2^53 every number reads as whole: such a base is said in words.
  const fromZero = Math.abs(steps) <= Number.MAX_SAFE_INTEGER && Math.abs(steps - Math.round(steps)) < 1e-9;
  return fromZero ? { multipleOf: step } : { words: `in steps of ${decimalText(step)} from ${decimalText(base)}` };
}

export function isNumberField(control: unknown): control is HTMLInputElement {
  return control instanceof HTMLInputElement && (control.type === 'number' || control.type === 'range');
}

export function numberAttribute(input: HTMLInputElement, name: string): number | undefined {
  const raw = input.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
