// Which sources a frame reads its tools from, in order: its own file so the content script's
// setup only wires, and the choice of sources reads as one decision.
import { createBridgeSource, type BridgeSource } from './bridge-source';
import { createDeclarativeSource } from './declarative-source';
import { browserReadsToolForms, createNativeSource } from './native-source';
import type { PageToolSource } from './page-tool-source';

/** The browser's API where there is one, then the bridge, then `<form toolname>` where the browser does not read forms. */
export function createPageToolSources(): { bridge: BridgeSource; sources: PageToolSource[] } {
  const native = createNativeSource();
  const bridge = createBridgeSource();
  const sources: PageToolSource[] = [...(native ? [native] : []), bridge];
  // The page-world half gives the agent's submits `respondWith()`, which a page's own world needs.
  if (!browserReadsToolForms()) sources.push(createDeclarativeSource(() => bridge.armFormResponse()));
  return { bridge, sources };
}
