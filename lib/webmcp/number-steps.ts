// What a number field's `step` lets through, which a JSON schema's `type` and `minimum` do not say.

/** No `step` (or a whole one) from a whole `min` only lands on whole numbers. */
export function isWholeStep(input: HTMLInputElement): boolean {
  const step = input.getAttribute('step');
  if (step === 'any') return false;
  const stepValue = step === null || step === '' ? 1 : Number(step);
  const base = numberAttribute(input, 'min') ?? 0;
  return Number.isInteger(stepValue) && Number.isInteger(base);
}

/**
 * The values a number field's `step` allows, in words for the model ("in steps of 25", "in steps
 * of 0.5 from 1"), where they are not simply every whole number (its type says that); undefined
 * for any other field.
 */
export function stepWords(input: HTMLInputElement): string | undefined {
  if (!isNumberField(input)) return undefined;
  const raw = input.getAttribute('step');
  if (raw === null || raw.trim() === '' || raw === 'any') return undefined;
  const step = Number(raw);
  if (!Number.isFinite(step) || step <= 0 || step === 1) return undefined;
  const base = numberAttribute(input, 'min') ?? 0;
  return base === 0 ? `in steps of ${step}` : `in steps of ${step} from ${base}`;
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
