// Listing the page's polyfilled tools for the content script: its own file so the page-world
// bridge's setup only wires, and which adapter owns a name is decided in one place.
import { readToolName, type ToolAdapter } from '../adapters/tool-adapter';
import { toolLimits } from '../tool-limits';
import { copyToolForPosting } from './copy-tool-for-posting';
import { listingWaitMs, type AdapterListing } from './adapter-listings';
import type { ExtensionEnd } from './extension-end';

/** Past ten times a frame's cap nothing more could be taken (see sanitizeTools): the rest is not copied. */
const mostTools = toolLimits.toolsPerFrame * 10;

/**
 * Posts every adapter's tools, the first adapter to list a name owning it, and refills `owners`
 * with those owners once all are listed.
 */
export async function postTools(
  extension: ExtensionEnd,
  adapters: readonly ToolAdapter[],
  owners: Map<string, ToolAdapter>,
  listWithin: (adapter: ToolAdapter) => Promise<AdapterListing>,
): Promise<void> {
  const listedOwners = new Map<string, ToolAdapter>();
  const tools: unknown[] = [];
  const unreadable: Array<{ name: unknown; reason: string }> = [];
  let looked = 0;
  let unread = 0;
  let late = 0;
  for (const adapter of adapters) {
    const listing = await listWithin(adapter);
    if (listing.late) late += 1;
    const listed = listing.tools;
    const room = Math.max(0, mostTools - looked);
    unread += Math.max(0, listed.length - room);
    for (const tool of listed.slice(0, room)) {
      looked += 1;
      const name = readToolName(tool);
      if (name !== undefined && listedOwners.has(name)) continue;
      if (name !== undefined) listedOwners.set(name, adapter);
      const posted = copyToolForPosting(tool);
      if (posted.ok) tools.push(posted.tool);
      // Only text crosses: a name that is a function or symbol would make postMessage throw.
      else unreadable.push({ name: typeof posted.name === 'string' ? posted.name : undefined, reason: posted.reason });
    }
  }
  // First: the content script keeps only the first 100 unreadable entries (see bridgeListing).
  if (unread > 0) unreadable.unshift({ name: '(more)', reason: `${unread} more tools were not read` });
  if (late > 0) unreadable.unshift({ name: '(slow)', reason: `getTools() took longer than ${listingWaitMs / 1000} s: its last listing is shown` });
  owners.clear();
  for (const [name, adapter] of listedOwners) owners.set(name, adapter);
  extension.post({ type: 'bridge-tools', tools, unreadable });
}
