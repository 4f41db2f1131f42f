/** An error as it crosses contexts: `{name, message}`, checked by name. */
export interface ErrorPayloadData {
  name: string;
  message: string;
}

/**
 * Any thrown value as an error payload; never throws, even for a hostile object. Kept free of
 * imports so the page-world bridge can use it. As in `errorMessage`, a value that is not an error
 * keeps its words (a thrown 404 reads "404"); unlike there, a plain object (libraries reject with
 * `{error, code}`) reads as its JSON, not "[object Object]".
 */
export function toErrorPayload(error: unknown, messageLimit = 2_000): ErrorPayloadData {
  let name = 'Error';
  let message = 'Unknown error';
  try {
    if (typeof error === 'object' && error !== null) {
      const candidate = error as { name?: unknown; message?: unknown };
      if (typeof candidate.name === 'string' && candidate.name !== '') name = candidate.name;
      const own = candidate.message;
      message = typeof own === 'string' ? own : objectWords(error);
    } else {
      message = String(error);
    }
  } catch {
    // A getter or a toString that throws leaves the defaults.
  }
  return { name: name.slice(0, 200), message: message.slice(0, messageLimit) };
}

/** An object without a message: its JSON where that says something, else what String makes of it (which may throw). */
function objectWords(error: object): string {
  try {
    const json = JSON.stringify(error);
    if (typeof json === 'string' && json !== '{}') return json;
  } catch {
    // A cycle, a BigInt or a getter that throws: String's words instead.
  }
  return String(error);
}
