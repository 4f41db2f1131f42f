/** What a call of a `<form toolname>` without `toolautosubmit` answers: the person submits it. */
export const formWaitsForPerson = 'The form is filled in and waits for the person to submit it.';

/**
 * What a call of a `<form toolname toolautosubmit>` answers when the page's own script handled the
 * submit (it called `preventDefault()`) and gave no result with `respondWith()`.
 */
export const formSubmittedWithoutResult = 'The form was submitted.';
