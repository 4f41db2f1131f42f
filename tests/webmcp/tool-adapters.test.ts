import { describe, expect, it } from 'vitest';
import { createLegacyContextAdapter, type LegacyContextLike } from '@/lib/webmcp/adapters/legacy-context-adapter';
import { createModelContextAdapter, type ModelContextLike } from '@/lib/webmcp/adapters/model-context-adapter';
import { withRegisteredHints } from '@/lib/webmcp/adapters/registered-hints';
import { createTestingApiAdapter } from '@/lib/webmcp/adapters/testing-api-adapter';

const never = new AbortController().signal;
const names = async (list: () => Promise<unknown[]>) => (await list()).map((tool) => (tool as { name: string }).name);

/** An older polyfill, as pages still load it: tools carry execute; no listing, no events. */
function olderContext() {
  const tools = new Map<string, { name: string; execute?: (args: unknown, agent: unknown) => unknown }>();
  const context = {
    provideContext({ tools: list = [] }: { tools?: Array<{ name: string }> }) {
      tools.clear();
      for (const tool of list) tools.set(tool.name, tool);
    },
    registerTool(tool: { name: string }) {
      if (tools.has(tool.name)) throw new Error(`Tool already registered: ${tool.name}`);
      tools.set(tool.name, tool);
      return { unregister: () => tools.delete(tool.name) };
    },
    unregisterTool(name: string) {
      tools.delete(name);
    },
    clearContext() {
      tools.clear();
    },
  };
  return context;
}

describe('createLegacyContextAdapter: following an older context', () => {
  it('sees tools provided and registered after it wrapped the context, and runs them', async () => {
    const context = olderContext();
    const adapter = createLegacyContextAdapter(context as LegacyContextLike);
    let changes = 0;
    adapter.watch(() => (changes += 1));
    context.provideContext({ tools: [{ name: 'list_notes', execute: () => ({ content: [{ type: 'text', text: 'Buy milk' }] }) } as never] });
    const registration = context.registerTool({ name: 'clear_notes', execute: (_args: unknown, agent: { signal: AbortSignal }) => `signal: ${agent.signal instanceof AbortSignal}` } as never);
    expect(await names(adapter.list)).toEqual(['list_notes', 'clear_notes']);
    expect(await adapter.execute('list_notes', {}, never)).toBe('{"content":[{"type":"text","text":"Buy milk"}]}');
    expect(await adapter.execute('clear_notes', {}, never)).toBe('signal: true');
    registration.unregister();
    expect(await names(adapter.list)).toEqual(['list_notes']);
    context.clearContext();
    expect(await names(adapter.list)).toEqual([]);
    expect(changes).toBe(4);
  });

  it('gives a tool’s own null as the word null and no value as a finished tool, never as a navigation', async () => {
    const context = olderContext();
    const adapter = createLegacyContextAdapter(context as LegacyContextLike);
    context.registerTool({ name: 'selected_item', execute: () => null } as never);
    context.registerTool({ name: 'clear_cart', execute: () => {} } as never);
    expect(await adapter.execute('selected_item', {}, never)).toBe('null');
    expect(await adapter.execute('clear_cart', {}, never)).toBe('The tool finished without a result.');
    // A function or a symbol has no JSON, as nothing has none: never its source, which may hold the page's secrets.
    context.registerTool({ name: 'order_status', execute: () => function status() { return 'sk-page-secret'; } } as never);
    context.registerTool({ name: 'marker', execute: () => Symbol('marker') } as never);
    expect(await adapter.execute('order_status', {}, never)).toBe('The tool finished without a result.');
    expect(await adapter.execute('marker', {}, never)).toBe('The tool finished without a result.');
  });

  it('fails a call whose result has no JSON, as Chrome does, instead of answering "[object Object]"', async () => {
    const context = olderContext();
    const adapter = createLegacyContextAdapter(context as LegacyContextLike);
    context.registerTool({ name: 'balance', execute: () => ({ cents: 10n }) } as never);
    await expect(adapter.execute('balance', {}, never)).rejects.toThrow(/^The tool's result could not be turned into JSON \(.*BigInt.*\), so nothing of it can be passed on\.$/);
  });

  it('leaves the context working as before, errors included', () => {
    const context = olderContext();
    createLegacyContextAdapter(context as LegacyContextLike);
    context.registerTool({ name: 'a' });
    expect(() => context.registerTool({ name: 'a' })).toThrow('Tool already registered: a');
  });

  it('forgets a tool whose registration signal aborts, and one whose promise rejects', async () => {
    const rejecting = { registerTool: (_tool: unknown, _options?: unknown): Promise<void> => Promise.reject(new Error('duplicate')) };
    const adapter = createLegacyContextAdapter(rejecting);
    await rejecting.registerTool({ name: 'x' }).catch(() => undefined);
    await Promise.resolve();
    expect(await names(adapter.list)).toEqual([]);
    const context = { registerTool: (_tool: unknown, _options?: unknown) => undefined };
    const following = createLegacyContextAdapter(context);
    const controller = new AbortController();
    context.registerTool({ name: 'y' }, { signal: controller.signal });
    expect(await names(following.list)).toEqual(['y']);
    controller.abort();
    expect(await names(following.list)).toEqual([]);
  });

  it('never brings back a tool the page withdrew when a later duplicate registration is refused', async () => {
    const pageTools = new Map<string, unknown>();
    const context = {
      async registerTool(tool: { name: string }, options?: { signal?: AbortSignal }) {
        if (pageTools.has(tool.name)) throw new Error(`Tool already registered: ${tool.name}`);
        pageTools.set(tool.name, tool);
        options?.signal?.addEventListener('abort', () => pageTools.delete(tool.name));
      },
    };
    const adapter = createLegacyContextAdapter(context);
    const first = new AbortController();
    await context.registerTool({ name: 'delete_account', description: 'Old.', execute: () => 'old handler ran' } as never, { signal: first.signal });
    const second = context.registerTool({ name: 'delete_account', description: 'New.', execute: () => 'new' } as never);
    first.abort();
    await expect(second).rejects.toThrow('already registered');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pageTools.has('delete_account')).toBe(false);
    expect(await adapter.list()).toEqual([]);
  });

  it('keeps listing a tool whose second registration the page refuses later, as double-running effects do', async () => {
    const pageTools = new Map<string, unknown>();
    // A polyfill that registers asynchronously and rejects a name it already has.
    const context = {
      async registerTool(tool: { name: string; execute(): string }) {
        await Promise.resolve();
        if (pageTools.has(tool.name)) throw new Error(`Tool already registered: ${tool.name}`);
        pageTools.set(tool.name, tool);
      },
    };
    const adapter = createLegacyContextAdapter(context);
    const search = { name: 'search', description: 'Search.', execute: () => 'first registration' };
    await context.registerTool(search);
    await expect(context.registerTool({ ...search, execute: () => 'refused registration' })).rejects.toThrow('Tool already registered: search');
    await Promise.resolve();
    expect(await names(adapter.list)).toEqual(['search']);
    expect(await adapter.execute('search', {}, never)).toBe('first registration');
  });

  it('says when a tool is unknown, and passes a tool’s own error on', async () => {
    const context = olderContext();
    const adapter = createLegacyContextAdapter(context as LegacyContextLike);
    context.registerTool({ name: 'boom', execute: () => { throw new Error('Legacy tool failed.'); } } as never);
    await expect(adapter.execute('nope', {}, never)).rejects.toThrow('The page offers no tool named "nope".');
    await expect(adapter.execute('boom', {}, never)).rejects.toThrow('Legacy tool failed.');
  });

  it('reads a hand-written context’s own list, which holds what the page registered before it was found', async () => {
    // A tutorial-style shim set up and used in one script: the bridge finds it only after that script.
    const store = new Map<string, { name: string; execute(): string }>();
    const context = {
      registerTool(tool: { name: string; execute(): string }) {
        store.set(tool.name, tool);
        return { unregister: () => store.delete(tool.name) };
      },
      get tools() {
        return [...store.values()];
      },
    };
    context.registerTool({ name: 'add_note', execute: () => 'added' });
    const adapter = createLegacyContextAdapter(context);
    expect(await names(adapter.list)).toEqual(['add_note']);
    expect(await adapter.execute('add_note', {}, never)).toBe('added');
    const later = context.registerTool({ name: 'delete_notes', execute: () => 'deleted' });
    expect(await names(adapter.list)).toEqual(['add_note', 'delete_notes']);
    later.unregister();
    expect(await names(adapter.list)).toEqual(['add_note']);
    await expect(adapter.execute('delete_notes', {}, never)).rejects.toThrow('The page offers no tool named "delete_notes".');
  });

  it('lists the tools of both methods where its `tools` holds only those of provideContext, and prefers what went through the methods', async () => {
    const provided: Array<{ name: string; description?: string; execute(): string }> = [];
    const added = new Map<string, { name: string; execute(): string }>();
    const context = {
      provideContext({ tools = [] }: { tools?: typeof provided }) {
        provided.splice(0, provided.length, ...tools.map(({ name, execute }) => ({ name, execute })));
      },
      registerTool(tool: { name: string; execute(): string }) {
        added.set(tool.name, tool);
      },
      get tools() {
        return provided;
      },
    };
    const adapter = createLegacyContextAdapter(context);
    context.provideContext({ tools: [{ name: 'search', description: 'Search the shop.', execute: () => 'found' }] });
    context.registerTool({ name: 'add_to_cart', execute: () => 'added' });
    expect(await adapter.list()).toMatchObject([{ name: 'search', description: 'Search the shop.' }, { name: 'add_to_cart' }]);
    expect(await adapter.execute('add_to_cart', {}, never)).toBe('added');
  });

  it('keeps to the tools it followed where `tools` is not a list of named tools', async () => {
    for (const tools of [['add_note'], [], 'add_note', new Map([['x', 1]]), [{ name: 'settings' }]]) {
      const context = { ...olderContext(), tools };
      const adapter = createLegacyContextAdapter(context as LegacyContextLike);
      context.registerTool({ name: 'add_note', execute: () => 'added' } as never);
      expect(await names(adapter.list)).toEqual(['add_note']);
      expect(await adapter.execute('add_note', {}, never)).toBe('added');
    }
  });

  it('stops waiting for a tool that never answers when the signal aborts', async () => {
    const context = olderContext();
    const adapter = createLegacyContextAdapter(context as LegacyContextLike);
    context.registerTool({ name: 'hang', execute: () => new Promise(() => {}) } as never);
    const controller = new AbortController();
    const call = adapter.execute('hang', {}, controller.signal);
    controller.abort(new Error('timed out'));
    await expect(call).rejects.toThrow('timed out');
  });
});

describe('createModelContextAdapter: the standard getTools / executeTool', () => {
  const ownWindow = {} as Window;
  const otherWindow = {} as Window;

  function context(takesJsonText: boolean): ModelContextLike & { inputs: unknown[] } {
    const inputs: unknown[] = [];
    return {
      inputs,
      getTools: async () => [
        { name: 'mine', description: 'd', window: ownWindow },
        { name: 'newer', description: 'd', source: ownWindow, window: undefined },
        { name: 'theirs', description: 'd', window: otherWindow },
      ],
      async executeTool(tool: unknown, input: unknown) {
        inputs.push(input);
        if (takesJsonText && typeof input !== 'string') throw new DOMException('Failed to parse input arguments', 'UnknownError');
        return { ran: (tool as { name: string }).name };
      },
    };
  }

  it('keeps only the frame’s own tools (other frames report theirs)', async () => {
    expect(await names(createModelContextAdapter(context(false), ownWindow).list)).toEqual(['mine', 'newer']);
  });

  it('passes the input as an object, and as JSON text to a context that wants text', async () => {
    const objectContext = context(false);
    expect(await createModelContextAdapter(objectContext, ownWindow).execute('mine', { a: 1 }, never)).toBe('{"ran":"mine"}');
    expect(objectContext.inputs).toEqual([{ a: 1 }]);
    const textContext = context(true);
    const textAdapter = createModelContextAdapter(textContext, ownWindow);
    expect(await textAdapter.execute('mine', { a: 1 }, never)).toBe('{"ran":"mine"}');
    expect(await textAdapter.execute('mine', { b: 2 }, never)).toBe('{"ran":"mine"}');
    // Learned once: the second call goes out as text at once.
    expect(textContext.inputs).toEqual([{ a: 1 }, '{"a":1}', '{"b":2}']);
  });

  it('never runs a tool twice because the tool\'s own error mentions parsing', async () => {
    let runs = 0;
    const adapter = createModelContextAdapter(
      {
        getTools: async () => [{ name: 'pay', description: 'd', window: ownWindow }],
        async executeTool() {
          runs += 1;
          throw new DOMException('Tool was executed but the invocation failed. For example, the script function threw an error: Failed to parse input from the bank', 'UnknownError');
        },
      },
      ownWindow,
    );
    await expect(adapter.execute('pay', { amount: 5 }, never)).rejects.toThrow('Tool was executed');
    expect(runs).toBe(1);
  });

  it('says a tool that returned nothing finished, as Chrome hands it over ("undefined") and as a polyfill does', async () => {
    for (const returned of ['undefined', undefined]) {
      const adapter = createModelContextAdapter({ getTools: async () => [{ name: 'add', description: 'd' }], executeTool: async () => returned }, ownWindow);
      expect(await adapter.execute('add', {}, never)).toBe('The tool finished without a result.');
    }
  });

  it('reads the browser’s null as a navigation, and a polyfill’s null as the tool’s value', async () => {
    const nullContext = { getTools: async () => [{ name: 'find_order', description: 'd' }], executeTool: async () => null };
    expect(await createModelContextAdapter(nullContext, ownWindow, { nullIsNavigation: true }).execute('find_order', {}, never)).toBeNull();
    expect(await createModelContextAdapter(nullContext, ownWindow, { nullIsNavigation: false }).execute('find_order', {}, never)).toBe('null');
  });

  it('fails a polyfill\'s call whose result had no JSON, which the polyfill hands over as "[object Object]" or "Symbol(s)", as the browser fails it', async () => {
    const context = { getTools: async () => [{ name: 'cyclic', description: 'd' }], executeTool: async () => '[object Object]' };
    await expect(createModelContextAdapter(context, ownWindow, { nullIsNavigation: false }).execute('cyclic', {}, never)).rejects.toThrow(
      'The tool\'s result could not be turned into JSON (the page\'s WebMCP script gave "[object Object]"), so nothing of it can be passed on.',
    );
    // An instance of a class of the page's own reads the same.
    const classed = { ...context, executeTool: async () => '[object Basket]' };
    await expect(createModelContextAdapter(classed, ownWindow, { nullIsNavigation: false }).execute('cyclic', {}, never)).rejects.toThrow('gave "[object Basket]"');
    // A symbol, which would read "Done: Symbol(s)".
    for (const symbol of ['Symbol(s)', 'Symbol()', 'Symbol(cart (old))']) {
      const symbolic = { ...context, executeTool: async () => symbol };
      await expect(createModelContextAdapter(symbolic, ownWindow, { nullIsNavigation: false }).execute('cyclic', {}, never)).rejects.toThrow(`gave "${symbol}"`);
    }
  });

  it('says a polyfill\'s tool the page removed or replaced while it ran may have done its work, not only "Tool unregistered"', async () => {
    // @mcp-b/webmcp-polyfill drops the calls in flight of a tool whose registration is aborted.
    const context = { getTools: async () => [{ name: 'add_to_cart', description: 'd' }], executeTool: async () => Promise.reject(new DOMException('Tool unregistered', 'UnknownError')) };
    await expect(createModelContextAdapter(context, ownWindow, { nullIsNavigation: false }).execute('add_to_cart', {}, never)).rejects.toThrow(
      'The page removed or replaced the tool "add_to_cart" while it ran, so no result came back. It may have done its work: check the page before calling it again.',
    );
    // A tool's own failure keeps its words.
    const failing = { ...context, executeTool: async () => Promise.reject(new DOMException('Tool was executed but the invocation failed: out of stock', 'UnknownError')) };
    await expect(createModelContextAdapter(failing, ownWindow, { nullIsNavigation: false }).execute('add_to_cart', {}, never)).rejects.toThrow('out of stock');
  });

  it('refuses a tool of another frame', async () => {
    await expect(createModelContextAdapter(context(false), ownWindow).execute('theirs', {}, never)).rejects.toThrow(
      'The page offers no tool named "theirs".',
    );
  });
});

describe('createTestingApiAdapter: Chrome 146–151’s testing API', () => {
  it('lists, follows changes and runs by name with JSON text', async () => {
    let callback: (() => void) | undefined;
    const received: unknown[] = [];
    const adapter = createTestingApiAdapter({
      listTools: () => [{ name: 'legacy', description: 'd', inputSchema: '{"type":"object"}' }],
      executeTool: async (name, input) => {
        received.push([name, input]);
        return 'done';
      },
      registerToolsChangedCallback: (registered) => (callback = registered),
    });
    let changes = 0;
    adapter.watch(() => (changes += 1));
    callback?.();
    expect(changes).toBe(1);
    expect(await adapter.execute('legacy', { q: 'x' }, never)).toBe('done');
    expect(received).toEqual([['legacy', '{"q":"x"}']]);
  });
});

describe('withRegisteredHints: a polyfill that lists fewer hints than the page gave', () => {
  /** Like @mcp-b/webmcp-polyfill 5.1: `getTools()` keeps only readOnlyHint and untrustedContentHint. */
  function polyfill() {
    const tools = new Map<string, { name: string; description: string; annotations?: Record<string, boolean> }>();
    return {
      async getTools() {
        return [...tools.values()].map(({ annotations = {}, ...tool }) => ({
          ...tool,
          annotations: { readOnlyHint: annotations.readOnlyHint === true, untrustedContentHint: annotations.untrustedContentHint === true },
        }));
      },
      async executeTool() {
        return 'ok';
      },
      async registerTool(tool: { name: string; description: string }, options?: { signal?: AbortSignal }) {
        if (tools.has(tool.name)) throw new Error(`Tool already registered: ${tool.name}`);
        tools.set(tool.name, tool);
        options?.signal?.addEventListener('abort', () => tools.delete(tool.name));
      },
    };
  }

  it('gives each listed tool the hints the page registered it with, and keeps what the polyfill lists', async () => {
    const context = polyfill();
    const adapter = withRegisteredHints(createModelContextAdapter(context, {} as Window), createLegacyContextAdapter(context as LegacyContextLike));
    const withdraw = new AbortController();
    await context.registerTool({ name: 'place_order', description: 'Place the order.', annotations: { consequentialHint: true } } as never, { signal: withdraw.signal });
    await context.registerTool({ name: 'search', description: 'Search.', annotations: { readOnlyHint: true } } as never);
    // A refused second registration changes nothing.
    await context.registerTool({ name: 'place_order', description: 'Again.', annotations: {} } as never).catch(() => undefined);
    const listed = (await adapter.list()) as Array<{ name: string; description: string; annotations: Record<string, boolean> }>;
    expect(listed.map(({ name, description, annotations }) => ({ name, description, annotations }))).toEqual([
      { name: 'place_order', description: 'Place the order.', annotations: { readOnlyHint: false, untrustedContentHint: false, consequentialHint: true } },
      { name: 'search', description: 'Search.', annotations: { readOnlyHint: true, untrustedContentHint: false } },
    ]);
    withdraw.abort();
    await context.registerTool({ name: 'place_order', description: 'Now harmless.' } as never);
    expect(((await adapter.list()) as Array<{ annotations: Record<string, boolean> }>)[1]!.annotations).toEqual({ readOnlyHint: false, untrustedContentHint: false });
  });

  it('says whether a tool registered before the extension found the polyfill is consequential is unknown, unless it is read-only', async () => {
    const context = polyfill();
    // Set up and used in one script, as a bundler does: no registration passes the wrapper.
    await context.registerTool({ name: 'place_order', description: 'Place the order.', annotations: { consequentialHint: true } } as never);
    await context.registerTool({ name: 'search', description: 'Search.', annotations: { readOnlyHint: true } } as never);
    const adapter = withRegisteredHints(createModelContextAdapter(context, {} as Window), createLegacyContextAdapter(context as LegacyContextLike));
    const listed = (await adapter.list()) as Array<{ name: string; annotations: Record<string, boolean> }>;
    expect(listed.map(({ name, annotations }) => [name, annotations])).toEqual([
      ['place_order', { readOnlyHint: false, untrustedContentHint: false, consequenceUnknown: true }],
      ['search', { readOnlyHint: true, untrustedContentHint: false }],
    ]);
  });
});
