/** An event of the extension API, such as `webNavigation.onCommitted`. */
export interface BrowserEvent<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

/**
 * The tab and navigation events the background hears, taken off while nothing follows a tab.
 *
 * Chrome starts a stopped service worker for every event a listener is added to, so with
 * `webNavigation.onCommitted` heard it would start at every page opened in any tab, and read the
 * whole background (WebLLM with it) for a page that offers no tools and no panel looks at. Chrome
 * follows `removeListener` too: with every listener of an event taken off, that event starts the
 * worker no more, and it does again once one is added back.
 */
export interface TabEvents {
  /**
   * Adds `listener` to `event` at once (the event that started the worker reaches only listeners
   * added as its script ran), and takes it off with the others while nothing follows a tab.
   */
  listen<Args extends unknown[]>(event: BrowserEvent<(...args: Args) => void>, listener: (...args: Args) => void): void;
  /** Names one reason to hear the events: while `follows` says true (or cannot tell), they stay. */
  followWhile(follows: () => boolean | Promise<boolean>): void;
  /** Something began following a tab (a page reported tools, a panel connected): the events are heard again, at once. */
  follow(): void;
  /** Something may have stopped following: a moment later, the events are taken off if nothing follows a tab. */
  recheck(): void;
}

export interface TabEventsOptions {
  /** How long after a `recheck` (or the worker's start) the reasons are asked. */
  recheckDelayMs?: number;
}

/** How long the reasons to hear tab events wait to be asked: what a change sets going has settled by then. */
export const tabEventsRecheckDelayMs = 2_000;

export function createTabEvents({ recheckDelayMs = tabEventsRecheckDelayMs }: TabEventsOptions = {}): TabEvents {
  const heard: { event: BrowserEvent<never>; listener: never }[] = [];
  const reasons: (() => boolean | Promise<boolean>)[] = [];
  let listening = true;
  // Bumped by each `follow`: an answer asked for before it is out of date.
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const anyReason = async (): Promise<boolean> => {
    const answers = await Promise.all(reasons.map((follows) => Promise.resolve().then(follows).catch(() => true)));
    return answers.some(Boolean);
  };

  const checkNow = async (): Promise<void> => {
    timer = undefined;
    const asked = generation;
    const follows = await anyReason();
    if (follows || asked !== generation || !listening) return;
    listening = false;
    for (const { event, listener } of heard) event.removeListener(listener);
  };

  const recheck = (): void => {
    // One check at a time is asked for: it answers for every change before it runs.
    if (!listening || timer !== undefined) return;
    timer = setTimeout(() => void checkNow(), recheckDelayMs);
  };

  return {
    listen(event, listener) {
      // Each event may change what is followed (a tab closing takes its tools and chat with it).
      const hear = (...args: Parameters<typeof listener>) => {
        try {
          listener(...args);
        } finally {
          recheck();
        }
      };
      heard.push({ event: event as BrowserEvent<never>, listener: hear as never });
      if (listening) event.addListener(hear);
      recheck();
    },
    followWhile(follows) {
      reasons.push(follows);
    },
    follow() {
      // A check already waiting still asks: what began following answers it then.
      generation += 1;
      if (listening) return;
      listening = true;
      for (const { event, listener } of heard) event.addListener(listener);
    },
    recheck,
  };
}
