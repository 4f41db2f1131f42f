import { openBridgeEnd } from '../../messaging/bridge-wire';
import { readProperty, type ToolAdapter } from '../adapters/tool-adapter';
import { createAdapterDiscovery } from './adapter-discovery';
import { createAdapterListings } from './adapter-listings';
import { pacePosts } from './pace-posts';
import { postTools } from './post-tools';
import { runBridgeCall } from './run-bridge-call';
import { watchAgentSubmits } from './watch-agent-submits';

/**
 * The page-world half of the bridge. It follows polyfilled and older WebMCP contexts, posts their
 * tools to the content script, and runs the calls the content script asks for. It pairs with the
 * content script before any page script runs (see bridge-wire), so only the content script can ask
 * it anything. It holds no extension data: anything it could tell a page script, the page knows.
 */
export function setupMainWorldBridge(): void {
  let started = false;
  let announced = false;
  const owners = new Map<string, ToolAdapter>();
  const calls = new Map<string, AbortController>();
  const listWithin = createAdapterListings(() => post());
  const post = pacePosts(() => postTools(extension, discovery.adapters(), owners, listWithin));
  const schedulePost = (): void => {
    // Silent until the page has a context to read: most content scripts never hear from it.
    if (!announced) extension.post({ type: 'bridge-ready' });
    announced = true;
    if (started) post();
  };
  const discovery = createAdapterDiscovery(schedulePost);
  const formResponses = watchAgentSubmits();
  const extension = openBridgeEnd((message) => {
    const type = readProperty(message, 'type');
    if (type === 'bridge-start' || type === 'bridge-list') {
      started = true;
      discovery.discover();
      if (announced) schedulePost();
    } else if (type === 'call-start') {
      void runBridgeCall(extension, message, owners, calls);
    } else if (type === 'call-abort') {
      calls.get(String(readProperty(message, 'callId')))?.abort();
    } else if (type === 'form-arm' || type === 'form-disarm') {
      formResponses.handle(type, String(readProperty(message, 'callId')), extension);
    }
  });
  const look = (): void => discovery.discover();
  watchWhileParsing(look);
  lookAfterLoad(look);
}

/**
 * Polyfills install themselves in one script and register tools in the next. Mutation records
 * are delivered before the parser runs the next script, so looking on every record while the
 * document is parsed catches an older context before its tools are provided.
 */
function watchWhileParsing(look: () => void): void {
  const observer = new MutationObserver(look);
  observer.observe(document, { childList: true, subtree: true });
  const finish = (): void => {
    observer.disconnect();
    look();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', finish, { once: true });
  else finish();
}

/** After `load`: at once, once the page's own load handlers ran, and twice more (ms). */
const looksAfterLoadMs = [0, 1_000, 5_000];

/**
 * Polyfills also come after `load`: set up by the page's own load handler (which runs after this
 * one, added at document_start), by a chunk loaded later, or by a tag manager. A few cheap looks
 * catch most; the content script asks for another whenever the background wants the tools. Only
 * the browser's own `load` counts: a page's look-alike would spend the looks too early.
 */
function lookAfterLoad(look: () => void): void {
  const lookNowAndLater = (): void => {
    look();
    for (const delayMs of looksAfterLoadMs) setTimeout(look, delayMs);
  };
  if (document.readyState === 'complete') return lookNowAndLater();
  const onLoad = (event: Event): void => {
    if (!event.isTrusted) return;
    window.removeEventListener('load', onLoad);
    lookNowAndLater();
  };
  window.addEventListener('load', onLoad);
}
