/**
 * Keeps the service worker awake, and with it the model in the GPU, for a while after the model
 * was last used. Chrome stops a worker idle for 30 s, which frees the GPU: the next request would
 * read the model's weights into it again (seconds, on every follow-up asked after a pause). As a
 * local model server keeps a model loaded some minutes after a request (Ollama's `keep_alive`,
 * five by default), so does this; the options page sets how long.
 */
export interface ModelLinger {
  /** The model was used (loaded, or a reply ended): it stays `ms` from now, the worker kept awake. */
  used(ms: number, keepAwake: () => () => void): void;
  /** The settings changed how long: counted from the last use, and let go at once if that is past. */
  retime(ms: number): void;
  /** The model is gone (unloaded): nothing to keep the worker awake for. */
  end(): void;
}

export function createModelLinger(now: () => number = () => Date.now()): ModelLinger {
  let lastUse = 0;
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
    const left = lastUse + ms - now();
    if (left <= 0) return end();
    timer = setTimeout(end, left);
  };

  return {
    used(ms, keepAwake) {
      lastUse = now();
      if (ms <= 0) return end();
      release ??= keepAwake();
      keepUntil(ms);
    },
    retime(ms) {
      if (release) keepUntil(ms);
    },
    end,
  };
}
