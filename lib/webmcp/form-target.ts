// Where a form's submit loads its result: this document's own browsing context, or another (a new
// tab, a named window or frame), which leaves this document as it is.

/**
 * What a call of a `<form toolname toolautosubmit>` answers when its result opens in another tab,
 * window or frame: the form was sent, and this page stays as it was, with nothing more to say.
 */
export const formResultElsewhere =
  'The form was sent, and its result opened in another tab, window or frame, which the agent does not read: ask the person to look there.';

/**
 * The same, where the browser submitted the form itself (its own WebMCP): Chrome's pop-up blocker
 * stops a new tab no click on the page opened, so it may never have been sent. The page cannot
 * see the tab; the background, told by the browser that one opened, says `formResultElsewhere`
 * instead (`hearTabsOpenedBy`).
 */
export const formResultMaybeBlocked =
  "The form's result was to open in another tab, which the browser may have blocked as a pop-up, so whether the form was sent is not known: do not send it again; ask the person to look for a new tab, or to send the form on the page.";

/**
 * Whether submitting `form` (by `submitter`, where known) loads its result in another tab, window
 * or frame: its target, the submitter's `formtarget`, or the document's `<base target>`, names a
 * new or other one. `_top` and `_parent` load this tab (a frame's, the page above it, which ends
 * the run by its own navigation).
 */
export function formTargetsElsewhere(form: HTMLFormElement, submitter?: Element | null): boolean {
  const own = submitter?.getAttribute('formtarget') ?? form.getAttribute('target') ?? form.ownerDocument.querySelector('base[target]')?.getAttribute('target') ?? '';
  return !['', '_self', '_top', '_parent'].includes(own.trim().toLowerCase());
}
