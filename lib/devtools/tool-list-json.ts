import type { TabTools } from '../registry/types';

/** The tab's tools as "Copy as JSON" gives them: the descriptors with origin, frame and source. */
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
  return JSON.stringify(tools, null, 2);
}
