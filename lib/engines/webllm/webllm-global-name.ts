/**
 * Where `webllm.js` (`entrypoints/webllm.ts`) leaves the WebLLM module on the service worker's
 * global scope, for `importWebLlm` (`webllm-script.ts`) to take. A file of its own, so that the
 * script built from it carries nothing of the engines but this name.
 */
export const webLlmGlobalName = 'webLlmModule';
