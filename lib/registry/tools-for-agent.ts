import { toolDescriptionLimit } from '@webmcp-agents/local-agent';
import { foldChoiceTitles } from './fold-choice-titles';
import { plainSchema } from './plain-schema';
import type { TabTools } from './types';

/**
 * The tab's tools as an agent may use them. Tools of frames the page did not allow never get here
 * (see frameToolsPermission); of the rest, one tool per name (the top frame's first), and a tool
 * from a frame of another origin says whose it is at the start of its description, so the model,
 * the trace and the person reading it all see where it comes from. Schemas are said in the words
 * the prompt keeps (see `plainSchema`), and choices with words of their own say them where the
 * model reads them (see `foldChoiceTitles`).
 */
export function toolsForAgent(tabTools: TabTools): TabTools {
  const taken = new Set<string>();
  const tools: TabTools['tools'] = [];
  const dropped = [...tabTools.dropped];
  for (const tool of tabTools.tools) {
    if (taken.has(tool.name)) {
      dropped.push({ name: tool.name, reason: 'a tool of another frame of this tab has the same name', frameId: tool.frameId });
      continue;
    }
    taken.add(tool.name);
    const label = tool.origin === tabTools.origin ? '' : `${originLabel(tool.origin)} `;
    const folded = schemaForAgent(tool.inputSchema);
    // Long lists of choices go to the tool's description only where they fit what the prompt keeps of it.
    const fits = folded.choices !== undefined && label.length + tool.description.length + 1 + folded.choices.length <= toolDescriptionLimit;
    const inputSchema = folded.choices === undefined || fits ? folded.inputSchema : (folded.inPlace as typeof folded.inputSchema);
    const description = `${label}${fits ? `${tool.description}\n${folded.choices}` : tool.description}`;
    tools.push(inputSchema === tool.inputSchema && description === tool.description ? tool : { ...tool, inputSchema, description });
  }
  return { ...tabTools, tools, dropped };
}

type InputSchema = TabTools['tools'][number]['inputSchema'];


// Schemas are kept by the registry from one report to the next: each is read once.
type FoldedSchema = { inputSchema: InputSchema; choices?: string; inPlace?: unknown };
const schemasForAgent = new WeakMap<object, FoldedSchema>();

function schemaForAgent(schema: InputSchema): FoldedSchema {
  if (typeof schema !== 'object' || schema === null) return { inputSchema: schema };
  let folded = schemasForAgent.get(schema);
  if (folded === undefined) {
    try {
      folded = foldChoiceTitles(plainSchema(schema)) as FoldedSchema;
    } catch {
      // One tool's odd schema must never take the tab's other tools from the agent: it goes as given.
      folded = { inputSchema: schema };
    }
    schemasForAgent.set(schema, folded);
  }
  return folded;
}

/** `[From https://maps.example, a frame inside this page]` */
function originLabel(origin: string): string {
  return `[From ${origin}, a frame inside this page]`;
}
