import type { BridgeReply } from '../messaging/bridge-schemas';
import { readProperty } from './adapters/tool-adapter';
import type { SourceListing } from './page-tool-source';
import { displayName } from './sanitize-tool';

/**
 * The tools the bridge posted, as this side's listing. The bridge shares its world with the page,
 * so the names and reasons of the tools it could not read are capped like any page data.
 */
export function bridgeListing(reply: Extract<BridgeReply, { type: 'bridge-tools' }>): SourceListing {
  return {
    offered: reply.tools.map((tool) => ({ tool, source: 'polyfill' as const, ...outputSchemaProblemOf(tool) })),
    refused: reply.unreadable.slice(0, 100).map(({ name, reason }) => ({ name: displayName(name), reason: reason.slice(0, 300) })),
  };
}

/** Why the bridge could not copy a posted tool's output schema, where it says (see copyToolForPosting). */
function outputSchemaProblemOf(tool: unknown): { outputSchemaProblem?: string } {
  const problem = readProperty(tool, 'outputSchemaProblem');
  return typeof problem === 'string' ? { outputSchemaProblem: problem } : {};
}
