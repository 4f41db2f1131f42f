import { EngineError } from '../engine';

/**
 * `fetch` that brings the server's key, as OpenAI's API and the local servers started with one ask
 * (`Authorization: Bearer`), where there is one. Every request of the engine goes to the one server
 * whose key it is, and to no other: a redirect is not followed (the prompt, the page's tools with
 * it, would go to an address the person never typed, the status line still naming the one they
 * did), and its answer reads as a refusal (see serverRefused).
 */
export function fetchWithKey(fetchFunction: typeof fetch, key: string): typeof fetch {
  return (input, init = {}) => {
    if (key === '') return fetchFunction(input, { ...init, redirect: 'manual' });
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetchFunction(input, { ...init, headers: Object.fromEntries(headers), redirect: 'manual' });
  };
}

/** The key as stored: as typed, without the spaces around it; one no server could have gives its reason. */
export function normalizeServerKey(typed: string): string {
  const key = typed.trim();
  // An HTTP header is Latin-1 without line breaks, and keys are printable ASCII.
  if (!/^[\x21-\x7e]*$/.test(key)) {
    throw new EngineError(
      'not-configured',
      'The API key has a space or a character no key has.',
      'Paste the key again in the options, as the server gave it.',
      'Paste it again as the server gave it, then press Connect.',
    );
  }
  if (key.length > maxServerKeyLength) {
    throw new EngineError(
      'not-configured',
      `The API key is longer than ${maxServerKeyLength.toLocaleString('en-US')} characters, longer than any server's.`,
      'Paste the key again in the options, as the server gave it.',
      'Paste it again as the server gave it, then press Connect.',
    );
  }
  return key;
}

/** Room for a signed token (a JWT of a few kilobytes), never a pasted file. */
export const maxServerKeyLength = 8_000;
