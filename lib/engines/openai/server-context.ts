import type { ServerKind } from './list-server-models';

/**
 * How many tokens the server's model reads at once, where the server says: llama.cpp's `/props`
 * (`default_generation_settings.n_ctx`, a slot's context), Ollama's `/api/ps` (`context_length`
 * of the model while it is loaded) and LM Studio's `/api/v0/models/{model}`
 * (`loaded_context_length`). A server its model list names is asked only its own way (vLLM and
 * SGLang have none: their list says it); one it does not name, each way. Undefined where none
 * answers with a figure: the caller assumes one. Never the model's trained maximum (Ollama's
 * `/api/show`): a server that runs it with less cuts a longer prompt without a word.
 */
export async function readServerContext(
  address: string,
  model: string,
  options: { fetch: typeof fetch; signal?: AbortSignal; timeoutMs?: number; kind?: ServerKind },
): Promise<{ tokens: number; from: ContextRoute } | undefined> {
  const root = address.replace(/\/v1\/?$/, '');
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 2_000), ...(options.signal ? [options.signal] : [])]);
  const read = async (path: string, pick: (body: Record<string, unknown>) => unknown): Promise<number | undefined> => {
    try {
      const response = await options.fetch(`${root}${path}`, { signal, headers: { accept: 'application/json' } });
      if (!response.ok) return undefined;
      const body: unknown = await response.json();
      return typeof body === 'object' && body !== null ? contextFigure(pick(body as Record<string, unknown>)) : undefined;
    } catch {
      return undefined;
    }
  };
  const asks: Record<ContextRoute, () => Promise<number | undefined>> = {
    'llama.cpp': () => read('/props', (body) => field(body['default_generation_settings'], 'n_ctx')),
    ollama: () =>
      read('/api/ps', (body) => {
        const models = Array.isArray(body['models']) ? body['models'] : [];
        const running = models.find((entry) => field(entry, 'model') === model || field(entry, 'name') === model);
        return field(running, 'context_length');
      }),
    'lm-studio': () => read(`/api/v0/models/${encodeURIComponent(model)}`, (body) => body['loaded_context_length']),
  };
  const kinds = options.kind === undefined ? contextRoutes : contextRoutes.filter((route) => route === options.kind);
  const figures = await Promise.all(kinds.map((kind) => asks[kind]()));
  const at = figures.findIndex((figure) => figure !== undefined);
  return at === -1 ? undefined : { tokens: figures[at]!, from: kinds[at]! };
}

/** The servers whose context is read from a route of their own, each its own way. */
type ContextRoute = 'llama.cpp' | 'ollama' | 'lm-studio';
const contextRoutes: readonly ContextRoute[] = ['llama.cpp', 'ollama', 'lm-studio'];

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** A context a small model can work in: a whole number of tokens, not absurdly small or large. */
export function contextFigure(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 512 && value <= 10_000_000 ? value : undefined;
}
