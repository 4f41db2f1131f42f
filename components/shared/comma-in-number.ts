import type { JSX } from 'preact';

/**
 * What becomes of a comma typed or pasted into a number field. Chrome's number field reads a comma
 * as a thousands separator and drops it, so that "0,7" (a decimal comma, as much of Europe writes
 * it) would be 7, and "1,5" 15, without a word. A number grouped in thousands ("10,000", "1,000.5")
 * is pasted without its commas; otherwise, in a field that takes decimals a comma is a decimal
 * point, and a field of whole numbers takes none, saying why (`refused`). Undefined: the input has
 * no comma, and the browser takes it as it comes.
 */
export function commaAction(data: string, decimals: boolean): { insert: string } | { refused: string } | undefined {
  if (!data.includes(',')) return undefined;
  const text = data.trim();
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) return { insert: text.replaceAll(',', '') };
  if (!decimals) return { refused: 'Whole numbers only, without a comma.' };
  if (text.includes('.')) return { refused: 'Not a number: a point or a comma, not both.' };
  return { insert: text.replaceAll(',', '.') };
}

/**
 * Puts a comma typed or pasted into a number field right (`commaAction`), as typed text
 * (`insertText`, so that Undo still works). Returns why a comma was refused, to say beside the
 * field; '' where the input was put in otherwise; undefined where the browser takes it as it comes
 * (no comma, text an input method is composing, a drop).
 */
export function putCommaRight(event: InputEvent, decimals: boolean): string | undefined {
  const { data, inputType } = event;
  if (!data || !event.cancelable || event.isComposing || (inputType !== 'insertText' && inputType !== 'insertFromPaste')) return undefined;
  const action = commaAction(data, decimals);
  if (!action) return undefined;
  event.preventDefault();
  if ('refused' in action) return action.refused;
  document.execCommand('insertText', false, action.insert);
  return '';
}

/**
 * For a number field with no note of its own: a comma refused is said by the browser, at the
 * field, and the field stays marked invalid until it is left ("1,5" typed on is 15: the word stays
 * while the 5 goes in).
 */
export function sayCommaAtField(decimals: boolean): Pick<JSX.InputHTMLAttributes<HTMLInputElement>, 'onBeforeInput' | 'onBlur'> {
  return {
    onBeforeInput: (event) => {
      const refused = putCommaRight(event, decimals);
      if (!refused) return;
      event.currentTarget.setCustomValidity(refused);
      event.currentTarget.reportValidity();
    },
    onBlur: (event) => event.currentTarget.setCustomValidity(''),
  };
}
