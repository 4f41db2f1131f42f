import type { TabTools } from '../registry/types';
import { withUnseenEscaped } from '../text/hidden-characters';

/**
 * The tab's tools as "Copy as JSON" gives them: the descriptors with origin, frame and source, a
 * character that draws nothing (a direction override in a description) written as its escape.
 */
export function toolListJson(tabTools: TabTools): string {
  const tools = tabTools.tools.map(({ name, title, description, inputSchema, outputSchema, annotations, origin, frameId, source }) => ({
    name,
    ...(title === undefined ? {} : { title }),
    description,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    origin,
    frameId,
    source,
  }));
  return withUnseenEscaped(JSON.stringify(tools, null, 2));
}
