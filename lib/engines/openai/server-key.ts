import { EngineError } from '../engine';

/**
 * `fetch` that brings the server's key, as OpenAI's API and the local servers started with one ask
 * (`Authorization: Bearer`); `fetch` itself where there is no key. Every request of the engine goes
 * to the one server whose key it is.
 */
export function fetchWithKey(fetchFunction: typeof fetch, key: string): typeof fetch {
  if (key === '') return fetchFunction;
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetchFunction(input, { ...init, headers: Object.fromEntries(headers) });
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
