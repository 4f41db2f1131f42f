/**
 * The message of any thrown value, as text; never throws, even for an object whose `message` or
 * `toString` does. Kept free of imports so the content script and the page-world bridge can use it.
 */
export function errorMessage(error: unknown): string {
  try {
    if (typeof error === 'object' && error !== null) {
      const { message } = error as { message?: unknown };
      if (typeof message === 'string') return message;
    }
    return String(error);
  } catch {
    return 'Unknown error';
  }
}

/** The name and message of any thrown value ("Error" where it has no name); never throws. */
export function errorNameAndMessage(error: unknown): { name: string; message: string } {
  let name = 'Error';
  try {
    const own = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
    if (typeof own === 'string' && own) name = own;
  } catch {
    // A name that throws reads as the plain "Error".
  }
  return { name, message: errorMessage(error) };
}
