import * as webllm from '@mlc-ai/web-llm';
import { webLlmGlobalName } from '../lib/engines/webllm/webllm-global-name';

/**
 * WebLLM as a classic script of its own, which the service worker imports only when it needs a
 * model (see `lib/engines/webllm/webllm-script.ts`): it leaves the module on the worker's global scope.
 */
export default defineUnlistedScript(() => {
  Object.assign(globalThis, { [webLlmGlobalName]: webllm });
});
