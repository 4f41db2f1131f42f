/** An error as it crosses contexts: `{name, message}`, checked by name. */
export interface ErrorPayloadData {
  name: string;
  message: string;
}

/**
 * Any thrown value as an error payload; never throws, even for a hostile object. Kept free of
 * imports so the page-world bridge can use it.
 */
export function toErrorPayload(error: unknown, messageLimit = 2_000): ErrorPayloadData {
  let name = 'Error';
  let message = 'Unknown error';
  try {
    if (typeof error === 'object' && error !== null) {
      const candidate = error as { name?: unknown; message?: unknown };
      if (typeof candidate.name === 'string' && candidate.name !== '') name = candidate.name;
      if (typeof candidate.message === 'string') message = candidate.message;
    } else if (typeof error === 'string') {
      message = error;
    }
  } catch {
    // A getter that throws leaves the defaults.
  }
  return { name: name.slice(0, 200), message: message.slice(0, messageLimit) };
}
