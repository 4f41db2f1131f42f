/** What a call of a `<form toolname>` without `toolautosubmit` answers: the person submits it. */
export const formWaitsForPerson = 'The form is filled in and waits for the person to submit it.';
