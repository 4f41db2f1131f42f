import { isAbortError } from '@webmcp-agents/local-agent';
import { EngineError } from '../engine';
import { contextFigure } from './server-context';
import { notAnApi, replyUnreadable, serverDown, serverRefused, serverSilent } from './server-errors';

export interface ServerRequestOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** How long the server may take to send the list: 10 s unless set; tests shorten it. */
  timeoutMs?: number;
}

/** The model ids a server offers at `GET {address}/models`, in the order it lists them. */
export async function listServerModels(address: string, options: ServerRequestOptions = {}): Promise<string[]> {
  return (await readServerModels(address, options)).ids;
}

/**
 * What a server's `GET {address}/models` says: its model ids, in the order it lists them, and
 * what it tells of itself there (which server it is, and the context each model runs with).
 */
export async function readServerModels(address: string, options: ServerRequestOptions = {}): Promise<ServerModels> {
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
  return modelList(text, address);
}

/** The ids in a `{data: [{id}]}` list; anything else is not the API's answer, not an empty list. */
function modelList(text: string, address: string): ServerModels {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw replyUnreadable(address, 'Connect');
  }
  const models = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(models)) throw replyUnreadable(address, 'Connect');
  const entries = models.flatMap((model: unknown) => {
    const { id, owned_by: ownedBy, max_model_len: runsWith, parent } = (model ?? {}) as Record<string, unknown>;
    return typeof id === 'string' && id ? [{ id, ownedBy, runsWith, parent }] : [];
  });
  const ids = entries.map((entry) => entry.id);
  const kind = serverKindOf(entries.map((entry) => entry.ownedBy), ids);
  // vLLM and SGLang give each model's context in the list (`max_model_len`, what it runs with; not
  // llama.cpp's `n_ctx_train`, the trained maximum); an adapter of vLLM's (a LoRA) runs with its base
  // model's (`parent`).
  const ownFigure = new Map(entries.map(({ id, runsWith }) => [id, contextFigure(runsWith)]));
  const contexts = new Map(entries.flatMap(({ id, parent }) => {
    const tokens = ownFigure.get(id) ?? (typeof parent === 'string' ? ownFigure.get(parent) : undefined);
    return tokens === undefined ? [] : [[id, tokens] as const];
  }));
  return { ids, ...(kind ? { kind } : {}), contexts };
}

/**
 * The server that wrote the list, where it says: llama.cpp owns its models as "llamacpp", LM
 * Studio as "organization_owner", vLLM and SGLang by their names; Ollama gives a model's namespace
 * ("library" for its own) and names every model with a tag (`qwen3:1.7b`). Undefined otherwise.
 */
function serverKindOf(owners: readonly unknown[], ids: readonly string[]): ServerKind | undefined {
  const says = (owner: string) => owners.length > 0 && owners.every((owned) => owned === owner);
  if (says('llamacpp')) return 'llama.cpp';
  if (says('organization_owner')) return 'lm-studio';
  if (says('vllm')) return 'vllm';
  if (says('sglang')) return 'sglang';
  if (owners.includes('library') || (ids.length > 0 && ids.every((id) => /:[^/:]+$/.test(id)))) return 'ollama';
  return undefined;
}

export interface ServerModels {
  ids: string[];
  /** Which server it is, where its list says. */
  kind?: ServerKind;
  /** The context each model runs with, where the list gives it. */
  contexts: ReadonlyMap<string, number>;
}

/** The servers this extension tells apart, by what their model lists say. */
export type ServerKind = 'llama.cpp' | 'ollama' | 'lm-studio' | 'vllm' | 'sglang';
