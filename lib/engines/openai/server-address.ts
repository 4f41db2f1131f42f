import { EngineError } from '../engine';

export const defaultServerAddress = 'http://localhost:11434/v1';

/**
 * The server's API root without a trailing slash. An address without a path gets `/v1`, where
 * Ollama, LM Studio and llama.cpp all serve the OpenAI-compatible API.
 */
export function normalizeServerAddress(address: string): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw notAnAddress(address);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notAnAddress(address);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path || '/v1'}`;
}

/** The host permission pattern that lets the extension reach this server (any port). */
export function serverPermissionPattern(address: string): string {
  const url = new URL(normalizeServerAddress(address));
  return `${url.protocol}//${url.hostname}/*`;
}

/** "localhost:11434", for messages. */
export function serverHost(address: string): string {
  return new URL(address).host;
}

function notAnAddress(address: string): EngineError {
  return new EngineError(
    'not-configured',
    `"${address}" is not a server address.`,
    `Enter the local server's address in the options, such as ${defaultServerAddress}.`,
  );
}
