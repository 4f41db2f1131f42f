/**
 * Keeps the service worker awake, and with it the model in the GPU, for a while after the model
 * was last used. Chrome stops a worker idle for 30 s, which frees the GPU: the next request would
 * read the model's weights into it again (seconds, on every follow-up asked after a pause). As a
 * local model server keeps a model loaded some minutes after a request (Ollama's `keep_alive`,
 * five by default), so does this; the options page sets how long.
 */
export interface ModelLinger {
  /**
   * The model was used (loaded, or a reply ended): it stays `ms` from now (as the settings said
   * when the engine was made), the worker kept awake; no longer than the settings say since.
   */
  used(ms: number, keepAwake: () => () => void): void;
  /**
   * The settings changed how long: counted from the last use, and let go at once if that is past;
   * a run still going on with the settings it began with keeps to this as well.
   */
  retime(ms: number): void;
  /** The model is gone (unloaded): nothing to keep the worker awake for. */
  end(): void;
}

export function createModelLinger(): ModelLinger {
  let lastUse = 0;
  // The settings' last word, where it came after the engine's.
  let latest: number | undefined;
  let release: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const end = () => {
    clearTimeout(timer);
    timer = undefined;
    release?.();
    release = undefined;
  };
  const keepUntil = (ms: number) => {
    clearTimeout(timer);
    const left = lastUse + ms - Date.now();
    if (left <= 0) return end();
    timer = setTimeout(end, left);
  };

  return {
    used(ms, keepAwake) {
      lastUse = Date.now();
      const kept = Math.min(ms, latest ?? ms);
      if (kept <= 0) return end();
      release ??= keepAwake();
      keepUntil(kept);
    },
    retime(ms) {
      latest = ms;
      if (release) keepUntil(ms);
    },
    end,
  };
}
