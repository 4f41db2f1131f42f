// Where a form's submit loads its result: this document's own browsing context, or another (a new
// tab, a named window or frame), which leaves this document as it is.

/**
 * What a call of a `<form toolname toolautosubmit>` answers when its result opens in another tab,
 * window or frame: the form was sent, and this page stays as it was, with nothing more to say.
 */
export const formResultElsewhere =
  'The form was sent, and its result opened in another tab, window or frame, which the agent does not read: ask the person to look there.';

/**
 * Whether submitting `form` (by `submitter`, where known) loads its result somewhere other than
 * this document's browsing context: its target, the submitter's `formtarget`, or the document's
 * `<base target>`, names a new or other window or frame. `_top` and `_parent` are this one in a top
 * frame; in a frame they load the page above, which ends the run by its own navigation.
 */
export function formTargetsElsewhere(form: HTMLFormElement, submitter?: Element | null): boolean {
  const own = submitter?.getAttribute('formtarget') ?? form.getAttribute('target') ?? form.ownerDocument.querySelector('base[target]')?.getAttribute('target') ?? '';
  const target = own.trim().toLowerCase();
  if (target === '' || target === '_self') return false;
  if (target === '_top' || target === '_parent') return window !== window.top;
  return true;
}
