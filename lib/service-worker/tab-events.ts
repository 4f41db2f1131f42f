/** An event of the extension API, such as `webNavigation.onCommitted`. */
export interface BrowserEvent<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

/**
 * Tab or navigation events the background hears only while something needs them.
 *
 * Chrome starts a stopped service worker for every event a listener is added to, so with
 * `webNavigation.onCommitted` heard it would start at every page opened in any tab, and read the
 * whole background (WebLLM with it) for a page that offers no tools and no panel looks at. Chrome
 * honours `removeListener` too: with every listener of an event taken off, that event starts the
 * worker no more, and it does again once one is added back.
 */
export interface TabEvents {
  /**
   * Adds `listener` to `event` at once (the event that started the worker reaches only listeners
   * added as its script ran), and takes it off with the others while no reason holds.
   */
  listen<Args extends unknown[]>(event: BrowserEvent<(...args: Args) => void>, listener: (...args: Args) => void): void;
  /** Names one reason to hear the events: while `needed` says true (or cannot tell), they stay. */
  neededWhile(needed: () => boolean | Promise<boolean>): void;
  /** A reason began to hold (a page reported tools, a panel connected): the events are heard again, at once. */
  needed(): void;
  /** A reason may have ended: a moment later, the events are taken off if none holds. */
  recheck(): void;
}

/**
 * The background's two sets: navigations (a page committed, loaded or failed in a tab), heard
 * while a page has tools, a panel is open or a run goes on; and tab removals (a tab closed, or
 * replaced by another under a new id), heard while a tab keeps anything: tools, a chat, a draft.
 */
export interface BackgroundTabEvents {
  navigations: TabEvents;
  tabRemovals: TabEvents;
}

/**
 * How long after a `recheck` (or the worker's start) the reasons wait to be asked: by then what a
 * change set going (a registry save, a panel's goodbye) is done.
 */
const recheckDelayMs = 2_000;

export function createTabEvents(): TabEvents {
  const heard: { event: BrowserEvent<never>; listener: never }[] = [];
  const reasons: (() => boolean | Promise<boolean>)[] = [];
  let listening = true;
  // Bumped by each `needed`: a check begun before it may have missed the reason that began, so
  // its "none holds" is not acted on.
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checking = false;
  // A recheck asked for while a check was out: one more follows it.
  let askedAgain = false;

  const anyReason = async (): Promise<boolean> => {
    const answers = await Promise.all(reasons.map((holds) => Promise.resolve().then(holds).catch(() => true)));
    return answers.some(Boolean);
  };

  // Each call on its own: an event the browser no longer offers must not keep the others as they were.
  const each = (change: 'addListener' | 'removeListener') => {
    for (const { event, listener } of heard) {
      try {
        event[change](listener);
      } catch {
        // Nothing to add or take off there.
      }
    }
  };

  const checkNow = async (): Promise<void> => {
    timer = undefined;
    checking = true;
    const asked = generation;
    const holds = await anyReason();
    checking = false;
    if (asked !== generation || askedAgain) {
      askedAgain = false;
      recheck();
      return;
    }
    if (holds || !listening) return;
    listening = false;
    each('removeListener');
  };

  function recheck(): void {
    if (!listening) return;
    if (checking) {
      askedAgain = true;
      return;
    }
    // One check at a time is asked for: it answers for every change before it runs.
    if (timer === undefined) timer = setTimeout(() => void checkNow(), recheckDelayMs);
  }

  return {
    listen(event, listener) {
      // Each event may end a reason (a tab closing takes its tools and chat with it).
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
    neededWhile(needed) {
      reasons.push(needed);
    },
    needed() {
      generation += 1;
      if (listening) return;
      listening = true;
      each('addListener');
    },
    recheck,
  };
}
