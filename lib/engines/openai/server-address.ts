import { EngineError } from '../engine';
import { isBlockedPort } from './blocked-ports';

const defaultServerAddress = 'http://localhost:11434/v1';

/**
 * The server's API root without a trailing slash. An address without a path gets `/v1`, where
 * Ollama, LM Studio and llama.cpp all serve the OpenAI-compatible API; one without a scheme
 * ("localhost:11434", "127.0.0.1:8080") gets `http://`, which local servers speak. One endpoint
 * of the API, as servers' docs show them (".../v1/chat/completions"), is cut back to its root.
 * The address a server says it listens on for every interface ("0.0.0.0", as vLLM's log prints it)
 * is reached on this computer's loopback: Chrome is closing the way to 0.0.0.0 itself.
 */
export function normalizeServerAddress(address: string): string {
  // A key written into the address (a user and key before "@", an api_key in its query) would be
  // lost here, unsaid: refused, and never repeated in the message.
  const signedIn = /^(?:[a-z][a-z\d+.-]*:\/\/)?[^/?#]*@([^/?#]*)/i.exec(address.trim());
  if (signedIn) throw keyInAddress(`before "@${signedIn[1]}"`);
  // No address has a space (Chrome's URL would take one in the host as "%20", a host no server has): the space is the mistake.
  if (/\s/.test(address.trim())) throw notAnAddress(address, 'it has a space in it');
  // Nor a "*": a server is one host (Chrome's URL would take it as "%2A", a host nobody has).
  if (/^(?:[a-z][a-z\d+.-]*:\/\/)?[^/?#]*\*/i.test(address.trim())) throw notAnAddress(address, 'a server is one host, and "*" names none');
  let url: URL;
  try {
    url = new URL(withScheme(address.trim()));
  } catch {
    throw notAnAddress(address);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notAnAddress(address);
  if (url.search !== '' || url.hash !== '') throw keyInAddress(`after "${url.pathname}"`, 'a query or fragment');
  if (isBlockedPort(url.port)) throw blockedPort(url.port);
  const listening = anyInterface[url.hostname];
  if (listening) url.hostname = listening;
  const path = url.pathname.replace(/\/+$/, '').replace(/\/(?:chat\/completions|completions|models)$/i, '');
  return `${url.origin}${path || '/v1'}`;
}

/** The "every interface" addresses a server listens on, and this computer's loopback address that reaches it there. */
const anyInterface: Readonly<Record<string, string>> = { '0.0.0.0': '127.0.0.1', '[::]': '[::1]' };

/** Whether two addresses name one server, however each was typed ("…/v1/" and "…/v1" are one). */
export function sameServer(one: string, other: string): boolean {
  const root = (address: string) => {
    try {
      return normalizeServerAddress(address);
    } catch {
      return address;
    }
  };
  return one === other || root(one) === root(other);
}

/**
 * The host the address points at, also where the engine refuses it (a port Chrome blocks, a key in
 * it): the name a server is called by says where it runs. Undefined where it is no web address.
 */
export function serverAddressHostname(address: string): string | undefined {
  if (/\s/.test(address.trim())) return undefined;
  try {
    const { protocol, hostname } = new URL(withScheme(address.trim()));
    return (protocol === 'http:' || protocol === 'https:') && hostname ? hostname : undefined;
  } catch {
    return undefined;
  }
}

/** "localhost:11434", for messages. */
export function serverHost(address: string): string {
  return new URL(address).host;
}

// `new URL` reads "localhost:11434" as the scheme "localhost:", and refuses "127.0.0.1:8080":
// a colon followed by a port number is host:port, not a scheme.
function withScheme(address: string): string {
  const scheme = /^[a-z][a-z\d+.-]*:(?!\d)/i.test(address);
  if (scheme) return address;
  // Without a scheme, only what looks like a host is taken as one: a typo such as "olama" is no address.
  const host = /^([^/?#:]+)/.exec(address)?.[1] ?? '';
  const hostLike = host.toLowerCase() === 'localhost' || host.includes('.') || address.startsWith('[') || /^[^/?#]+:\d+/.test(address);
  return hostLike ? `http://${address}` : address;
}

function keyInAddress(where: string, what = 'a user name or key'): EngineError {
  return new EngineError(
    'not-configured',
    `The server address has ${what} in it (${where}).`,
    'Enter the address without it in the options, and the key under "API key".',
    'Enter the address without it, and the key under "API key", then press Connect.',
  );
}

function notAnAddress(address: string, why?: string): EngineError {
  const example = 'localhost:11434';
  return new EngineError(
    'not-configured',
    address.trim() ? `"${address.trim()}" is not a server address${why ? `: ${why}` : ''}.` : 'The server address is empty.',
    `Enter the local server's address in the options, such as ${example} or ${defaultServerAddress}.`,
    `Enter the server's address, such as ${example} or ${defaultServerAddress}, then press Connect.`,
  );
}

function blockedPort(port: string): EngineError {
  const ports = "Ollama's is 11434, LM Studio's 1234, llama.cpp's 8080";
  return new EngineError(
    'not-configured',
    `Chrome does not connect to port ${port}: it keeps that port closed to web pages and extensions.`,
    `Start the server on another port (${ports}) and enter that address in the options.`,
    `Start the server on another port (${ports}) and enter that address, then press Connect.`,
  );
}
