import { isAbortError } from '@webmcp-agents/local-agent';
import { EngineError } from '../engine';
import { notAnApi, replyUnreadable, serverDown, serverRefused, serverSilent } from './server-errors';

export interface ServerRequestOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** How long the server may take to send the list: 10 s unless set; tests shorten it. */
  timeoutMs?: number;
}

/** The model ids a server offers at `GET {address}/models`, in the order it lists them. */
export async function listServerModels(address: string, options: ServerRequestOptions = {}): Promise<string[]> {
  const fetchFunction = options.fetch ?? globalThis.fetch;
  // A server that accepts the connection but never answers must not hang the run.
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  // A server that is running but busy is told apart from one that is not running at all.
  const failure = (error: unknown) => {
    if (options.signal?.aborted && isAbortError(error)) return error;
    return timeout.aborted ? serverSilent(address, timeoutMs) : serverDown(address);
  };
  let response: Response;
  let text: string;
  try {
    response = await fetchFunction(`${address}/models`, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) throw await serverRefused(address, response);
    // A router's page, a site or the server's own UI: the address is not the API's.
    if (/\bhtml\b/i.test(response.headers.get('content-type') ?? '')) throw notAnApi(address, 'a list of models');
    text = await response.text();
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw failure(error);
  }
  return modelIds(text, address);
}

/** The ids in a `{data: [{id}]}` list; anything else is not the API's answer, not an empty list. */
function modelIds(text: string, address: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw replyUnreadable(address, 'Connect');
  }
  const models = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(models)) throw replyUnreadable(address, 'Connect');
  return models.flatMap((model: unknown) => {
    const id = (model as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id ? [id] : [];
  });
}
