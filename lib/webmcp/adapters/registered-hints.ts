import { readProperty, readToolName, type ToolAdapter } from './tool-adapter';

/**
 * A polyfill's adapter whose listed tools carry every hint the page gave when it registered them.
 * A polyfill may list fewer (5.1 keeps only `readOnlyHint` and `untrustedContentHint`), and
 * `consequentialHint` is what makes a call ask every time. `registrations` follows the context's
 * `registerTool` (see `createLegacyContextAdapter`) and lists the tools as the page gave them.
 * A hint is only ever added, never taken away: what the polyfill lists still counts.
 */
export function withRegisteredHints(adapter: ToolAdapter, registrations: ToolAdapter): ToolAdapter {
  return {
    ...adapter,
    async list() {
      const [listed, registered] = await Promise.all([adapter.list(), registrations.list().catch(() => [])]);
      const given = new Map(registered.map((tool) => [readToolName(tool), readProperty(tool, 'annotations')]));
      return listed.map((tool) => addHints(tool, given.get(readToolName(tool))));
    },
  };
}

function addHints(tool: unknown, registered: unknown): unknown {
  const added = Object.entries(typeof registered === 'object' && registered !== null ? registered : {}).filter(([, value]) => value === true);
  if (added.length === 0) return tool;
  const listed = readProperty(tool, 'annotations');
  const annotations = { ...(typeof listed === 'object' && listed !== null ? listed : {}), ...Object.fromEntries(added) };
  const copy: Record<string, unknown> = { annotations };
  for (const field of ['name', 'title', 'description', 'inputSchema']) {
    const value = readProperty(tool, field);
    if (value !== undefined) copy[field] = value;
  }
  return copy;
}
