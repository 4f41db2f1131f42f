import { abortable, executeResultString, readProperty, readToolName, toolNotFound, type ToolAdapter } from './tool-adapter';

/** The older shape (early polyfills, `navigator.modelContext`): tools carry their own `execute`. */
export interface LegacyContextLike {
  provideContext?(context: { tools?: unknown[] }): unknown;
  registerTool?(tool: unknown, options?: { signal?: AbortSignal }): unknown;
  unregisterTool?(name: string): unknown;
  clearContext?(): unknown;
}

export function isLegacyContextLike(value: unknown): boolean {
  return ['provideContext', 'registerTool'].some((method) => typeof readProperty(value, method) === 'function');
}

/**
 * Follows an older context by wrapping its four methods: each still does what it did, and the
 * adapter keeps the tools (with their `execute`) that passed through. `provideContext` replaces
 * its own set; `registerTool` adds to a second set, as the older polyfills did.
 *
 * Where the context keeps its tools readable (see readToolStore), the tools found only there are
 * listed too: those the page registered before the context was found, in the script that set it
 * up. What went through the methods still wins for a name both have: it is what the page gave,
 * hints included. (A handle the page got back before is not followed: what it withdraws shows at
 * the next change.) `readStore: false` keeps to what went through the methods, for reading the
 * hints a polyfill's own records may have dropped.
 */
export function createLegacyContextAdapter(context: LegacyContextLike, { readStore = true } = {}): ToolAdapter {
  const provided = new Map<string, unknown>();
  const registered = new Map<string, unknown>();
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((listener) => listener());
  wrapMethods(context, { provided, registered, notify });
  const tools = (): unknown[] => {
    const followed = [...provided.values(), ...[...registered.values()].filter((tool) => !provided.has(readToolName(tool) ?? ''))];
    // In the page's own order where it keeps one; what went through the methods stands in for its
    // name, and what the list lacks comes after.
    const followedByName = new Map(followed.map((tool) => [readToolName(tool), tool]));
    const stored = (readStore ? readToolStore(context) : undefined) ?? [];
    const listed = stored.map((tool) => followedByName.get(readToolName(tool)) ?? tool);
    const listedNames = new Set(listed.map(readToolName));
    return [...listed, ...followed.filter((tool) => !listedNames.has(readToolName(tool)))];
  };
  return {
    list: async () => tools(),
    watch(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    async execute(name, args, signal) {
      const tool = tools().find((candidate) => readToolName(candidate) === name);
      const execute = readProperty(tool, 'execute');
      if (typeof execute !== 'function') throw toolNotFound(name);
      // The second argument was an "agent" with requestUserInteraction, later `{signal}`.
      const agent = { signal, requestUserInteraction: (callback: () => unknown) => Promise.resolve().then(callback) };
      const result: unknown = await abortable(Promise.resolve().then(() => execute.call(tool, args, agent)), signal);
      return executeResultString(result);
    },
  };
}

/**
 * The tools a hand-written context keeps readable as `tools` (an array, or a Map or Set of them,
 * directly or through a getter). The bridge finds a context only between scripts, so this is the
 * one way to see tools registered in the very script that set the context up. Undefined where there
 * is no such list, or where it holds anything but named tools that carry their own `execute`.
 */
function readToolStore(context: LegacyContextLike): unknown[] | undefined {
  const store = readProperty(context, 'tools');
  let entries: unknown[];
  try {
    if (Array.isArray(store)) entries = [...store];
    else if (store instanceof Map) entries = [...store.values()];
    else if (store instanceof Set) entries = [...store];
    else return undefined;
  } catch {
    return undefined;
  }
  return entries.every((tool) => readToolName(tool) !== undefined && typeof readProperty(tool, 'execute') === 'function') ? entries : undefined;
}

interface Buckets {
  provided: Map<string, unknown>;
  registered: Map<string, unknown>;
  notify: () => void;
}

function wrapMethods(context: LegacyContextLike, buckets: Buckets): void {
  const { provided, registered, notify } = buckets;
  wrap(context, 'provideContext', (input: unknown) => {
    provided.clear();
    const tools = readProperty(input, 'tools');
    if (Array.isArray(tools)) for (const tool of tools) provided.set(readToolName(tool) ?? '', tool);
    notify();
  });
  // Tools the page withdrew (by their signal or handle), even while another held their name: a
  // refused registration must never bring one of them back.
  const withdrawn = new WeakSet<object>();
  wrap(context, 'registerTool', (tool: unknown, options: unknown, result: unknown) => {
    const name = readToolName(tool) ?? '';
    const previous = registered.has(name) ? { tool: registered.get(name) } : undefined;
    registered.set(name, tool);
    const forget = (): void => {
      if (typeof tool === 'object' && tool !== null) withdrawn.add(tool);
      if (registered.get(name) === tool && registered.delete(name)) notify();
    };
    const signal = readProperty(options, 'signal');
    if (signal instanceof AbortSignal) signal.addEventListener('abort', forget, { once: true });
    watchUnregister(result, forget);
    notify();
    // Refused (a duplicate name, as StrictMode and hot reloads make): the tool registered before
    // is still the page's, so it comes back; only what this call added is undone.
    return () => {
      if (registered.get(name) !== tool) return;
      const back = previous?.tool;
      if (previous && !(typeof back === 'object' && back !== null && withdrawn.has(back))) registered.set(name, back);
      else registered.delete(name);
      notify();
    };
  });
  wrap(context, 'unregisterTool', (name: unknown) => {
    if (typeof name === 'string' && (registered.delete(name) || provided.delete(name))) notify();
  });
  wrap(context, 'clearContext', () => {
    provided.clear();
    registered.clear();
    notify();
  });
}

/**
 * Replaces `context[method]` by a function that calls the original, then `after` if it did not
 * throw. `after` may return an undo, run when the original's promise rejects (newer polyfills
 * register asynchronously and reject duplicates).
 */
function wrap(
  context: LegacyContextLike,
  method: keyof LegacyContextLike,
  after: (first: unknown, second: unknown, result: unknown) => (() => void) | void,
): void {
  const original = readProperty(context, method);
  if (typeof original !== 'function') return;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const result: unknown = original.apply(this, args);
    const undo = after(args[0], args[1], result);
    if (undo && result instanceof Promise) result.catch(undo);
    return result;
  };
  try {
    Object.defineProperty(context, method, { value: wrapped, configurable: true, writable: true });
  } catch {
    // A frozen context cannot be followed; its tools stay unseen.
  }
}

/** `registerTool` in older polyfills returned `{unregister()}`: follow it too. */
function watchUnregister(result: unknown, forget: () => void): void {
  const unregister = readProperty(result, 'unregister');
  if (typeof unregister !== 'function' || typeof result !== 'object' || result === null) return;
  try {
    Object.defineProperty(result, 'unregister', {
      value: (...args: unknown[]) => {
        const value: unknown = unregister.apply(result, args);
        forget();
        return value;
      },
      configurable: true,
      writable: true,
    });
  } catch {
    // Frozen: the tool stays listed until the page changes its context again.
  }
}
