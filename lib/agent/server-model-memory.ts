import type { EnginePreview } from '../engines/engine-preview';
import { normalizeServerAddress } from '../engines/openai/server-address';
import type { Settings } from '../settings';

/** The slice of `storage.session` the memory is kept in. */
export interface ServerModelArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const key = 'serverModel';

/**
 * Where the settings name no model, a model server's engine uses the server's first: which one is
 * known only once it has loaded. The worker that loaded it keeps it in session storage (for the
 * browser's session, one server at a time), so that a worker started afterwards names it in the
 * panels before its own first load, as the worker before did (see `EnginePreview`).
 */
export function createServerModelMemory(area: ServerModelArea) {
  return {
    remember(settings: Pick<Settings, 'openaiBaseUrl'>, model: string): Promise<void> {
      return area.set({ [key]: { address: serverOf(settings), model } }).catch(() => undefined);
    },
    /** The model the server loaded last at the settings' address; the settings' own (the default, '') where none is known. */
    async preview(settings: Pick<Settings, 'openaiBaseUrl' | 'model'>): Promise<EnginePreview> {
      if (settings.model !== '') return { model: settings.model };
      const kept = (await area.get(key).catch((): Record<string, unknown> => ({})))[key];
      const known = typeof kept === 'object' && kept !== null ? (kept as { address?: unknown; model?: unknown }) : {};
      return { model: known.address === serverOf(settings) && typeof known.model === 'string' ? known.model : '' };
    },
  };
}

/** The server the settings name, however its address was typed ("…/v1/" and "…/v1" are one). */
function serverOf({ openaiBaseUrl }: Pick<Settings, 'openaiBaseUrl'>): string {
  try {
    return normalizeServerAddress(openaiBaseUrl);
  } catch {
    return openaiBaseUrl;
  }
}

export type ServerModelMemory = ReturnType<typeof createServerModelMemory>;
