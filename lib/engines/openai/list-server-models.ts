import { isAbortError } from '@webmcp-agents/local-agent';
import { serverDown, serverRefused } from './server-errors';

export interface ServerRequestOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Whether the extension may reach the server, to say so when nothing answers. */
  permissionGranted?: boolean;
}

/** The model ids a server offers at `GET {address}/models`, in the order it lists them. */
export async function listServerModels(address: string, options: ServerRequestOptions = {}): Promise<string[]> {
  const fetchFunction = options.fetch ?? globalThis.fetch;
  // A server that accepts the connection but never answers must not hang the run.
  const timeout = AbortSignal.timeout(10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetchFunction(`${address}/models`, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (options.signal?.aborted && isAbortError(error)) throw error;
    throw serverDown(address, options.permissionGranted);
  }
  if (!response.ok) throw await serverRefused(address, response);
  const body = (await response.json().catch(() => ({}))) as { data?: unknown };
  const models = Array.isArray(body.data) ? body.data : [];
  return models.flatMap((model: unknown) => {
    const id = (model as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id ? [id] : [];
  });
}
