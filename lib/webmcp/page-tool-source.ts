import type { ToolAdapter } from './adapters/tool-adapter';
import type { DroppedToolReport, ToolSource } from './reported-tool';
import type { OfferedTool } from './sanitize-tools';

/** What one source of a frame offers: tools to check, and tools it already refused. */
export interface SourceListing {
  offered: OfferedTool[];
  refused: DroppedToolReport[];
}

/** A source of a frame's tools, as the content script reads them. */
export interface PageToolSource {
  /**
   * True for a source that may see what an earlier one already offers (a form a polyfill reads
   * too): its tools with a name already taken are skipped quietly instead of dropped.
   */
  readonly yieldsToEarlier?: boolean;
  list(): Promise<SourceListing>;
  watch(onChange: () => void): () => void;
  /**
   * Looks for tools no event announced (a panel opened on the tab), walking the page where it
   * must; what it finds reaches `watch`'s listener.
   */
  lookAgain?(): void;
  execute(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<string | null>;
}

/** A source over an adapter; `sourceOf` names where each tool came from. */
export function sourceFromAdapter(adapter: ToolAdapter, sourceOf: (tool: unknown) => ToolSource): PageToolSource {
  return {
    async list() {
      const tools = await adapter.list();
      return { offered: tools.map((tool) => ({ tool, source: sourceOf(tool) })), refused: [] };
    },
    watch: (onChange) => adapter.watch(onChange),
    execute: (name, args, signal) => adapter.execute(name, args, signal),
  };
}
