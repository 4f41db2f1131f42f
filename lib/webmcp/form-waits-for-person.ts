/** What a call of a `<form toolname>` without `toolautosubmit` answers: the person submits it. */
export const formWaitsForPerson = 'The form is filled in and waits for the person to submit it.';

/**
 * What a call of a `<form toolname toolautosubmit>` answers when the page's own script handled the
 * submit (it called `preventDefault()`) and gave no result with `respondWith()`. The script may have
 * sent it, or refused the values and shown why: told it failed, a model sends it again (a second
 * order); told it worked, it says so where the page shows an error. So it says neither.
 */
export const formSubmittedWithoutResult =
  "The page's own script took the form and gave no result, so whether it acted is not known: do not send it again; ask the person to look at the page.";

