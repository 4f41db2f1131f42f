import type { ToolOutput } from '@webmcp-agents/chat';
import { executeTabTool as executeInTab, type ExecuteOptions } from './execute-tab-tool';
import { coalesceRegistrySaves } from './coalesce-registry-saves';
import { sessionRegistryStorage } from './session-registry-storage';
import type { TabToolsListener } from './announce-tab-tools';
import { TabToolRegistry } from './tab-tool-registry';
import { toolsForAgent } from './tools-for-agent';
import { wireToolRegistry } from './wire-tool-registry';
import { lookAgainInTab as lookAgain } from './look-again-in-tab';
import { requestTabTools } from './request-tab-tools';
import type { TabTools } from './types';
import type { BackgroundTabEvents } from '../service-worker/tab-events';

export { pageScriptAnswers } from './page-script-answers';
export { readLoadedPageResult } from './read-loaded-page-result';
export { showAsking } from './show-tool-count';
export type { TabTools } from './types';
export type { ExecuteOptions } from './execute-tab-tool';
export type { TabToolsListener } from './announce-tab-tools';

let registry: TabToolRegistry | undefined;

/** The background's one registry, created on first use. */
function theRegistry(): TabToolRegistry {
  registry ??= new TabToolRegistry(coalesceRegistrySaves(sessionRegistryStorage), (tabId, frameIds) => {
    for (const frameId of frameIds) requestTabTools(tabId, { frameId });
  });
  return registry;
}

/** Wires the tab tool registry into the background. Call once, synchronously, from `main`. */
export function setupToolRegistry(tabEvents: BackgroundTabEvents): void {
  wireToolRegistry(theRegistry(), tabEvents);
}

/**
 * The tab's tools now (all frames the page allows, one per name, labelled with their origin when
 * it is not the tab's), or undefined when it offers none. What the agent and replays use.
 */
export async function getTabTools(tabId: number): Promise<TabTools | undefined> {
  const tabTools = await theRegistry().get(tabId);
  return tabTools && toolsForAgent(tabTools);
}

/** Has a tab's frames look for their tools again, and forgets those of a page that no longer answers (see `lookAgainInTab`). */
export function lookAgainInTab(tabId: number): Promise<void> {
  return lookAgain(theRegistry(), tabId);
}

/** Calls `listener` whenever a tab's tools change; returns a function that stops. */
export function onTabToolsChanged(listener: TabToolsListener): () => void {
  return theRegistry().onChange(listener);
}

/**
 * Runs a tab's tool in the page. Page faults, timeouts (default 30 s) and navigation come back
 * as text (`isError` for faults); it rejects only when `options.signal` aborts.
 */
export function executeTabTool(
  tabId: number,
  name: string,
  args: Record<string, unknown>,
  options?: ExecuteOptions,
): Promise<ToolOutput> {
  return executeInTab(theRegistry(), tabId, name, args, options);
}
