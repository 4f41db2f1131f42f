import { isRecord } from '@webmcp-agents/chat';
import { readToolFields } from '../read-tool-fields';
import { readProperty, readToolName, type ToolAdapter } from './tool-adapter';

/**
 * A polyfill's adapter whose listed tools carry every hint the page gave when it registered them.
 * A polyfill may list fewer (5.1 keeps only `readOnlyHint` and `untrustedContentHint`), and
 * `consequentialHint` is what makes a call ask every time. `registrations` follows the context's
 * `registerTool` (see `createLegacyContextAdapter`) and lists the tools as the page gave them.
 * A hint is only ever added, never taken away: what the polyfill lists still counts. The page's
 * `outputSchema` is added the same way, where the polyfill lists none (5.1 lists none).
 *
 * A tool registered before the extension found the polyfill (in the same script that set it up,
 * the usual way with a bundler) cannot be read so. Where the polyfill does not list the hint
 * either, whether it is consequential is unknown (`consequenceUnknown`): it asks every time.
 */
export function withRegisteredHints(adapter: ToolAdapter, registrations: ToolAdapter): ToolAdapter {
  return {
    ...adapter,
    async list() {
      const [listed, registered] = await Promise.all([adapter.list(), registrations.list().catch(() => [])]);
      const given = new Map(registered.map((tool) => [readToolName(tool), tool]));
      return listed.map((tool) => {
        const name = readToolName(tool);
        if (!given.has(name)) return markUnknown(tool);
        const page = given.get(name);
        return addOutputSchema(addHints(tool, readProperty(page, 'annotations')), readProperty(page, 'outputSchema'));
      });
    },
  };
}

function addHints(tool: unknown, registered: unknown): unknown {
  const added = Object.entries(isRecord(registered) ? registered : {}).filter(([, value]) => value === true);
  if (added.length === 0) return tool;
  return withFields(tool, { annotations: { ...listedAnnotations(tool), ...Object.fromEntries(added) } });
}

function addOutputSchema(tool: unknown, registered: unknown): unknown {
  if (registered === undefined || readProperty(tool, 'outputSchema') !== undefined) return tool;
  return withFields(tool, { outputSchema: registered });
}

function markUnknown(tool: unknown): unknown {
  const listed = listedAnnotations(tool);
  if ('consequentialHint' in listed || listed.readOnlyHint === true) return tool;
  return withFields(tool, { annotations: { ...listed, consequenceUnknown: true } });
}

function listedAnnotations(tool: unknown): Record<string, unknown> {
  const listed = readProperty(tool, 'annotations');
  try {
    return isRecord(listed) ? { ...listed } : {};
  } catch {
    // A getter of the page's that throws: the hints it hides are unknown.
    return {};
  }
}

function withFields(tool: unknown, added: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.entries(readToolFields(tool)).filter(([, value]) => value !== undefined);
  return { ...Object.fromEntries(fields), ...added };
}
