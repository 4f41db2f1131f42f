import { createModelContextAdapter, isModelContextLike } from './adapters/model-context-adapter';
import { createTestingApiAdapter, isTestingApiLike } from './adapters/testing-api-adapter';
import { readProperty, readToolName } from './adapters/tool-adapter';
import { sourceFromAdapter, type PageToolSource } from './page-tool-source';

/**
 * The browser's own WebMCP, which an isolated-world script sees directly (JavaScript polyfills
 * it cannot see). `document.modelContext` first; Chrome 146–151's testing API otherwise.
 * A native tool backed by a `<form toolname>` is marked declarative.
 */
export function createNativeSource(): PageToolSource | undefined {
  const context = readProperty(document, 'modelContext');
  if (isModelContextLike(context)) {
    return sourceFromAdapter(createModelContextAdapter(context, window), (tool) =>
      hasToolForm(readToolName(tool)) ? 'declarative' : 'native',
    );
  }
  const testing = readProperty(navigator, 'modelContextTesting');
  if (isTestingApiLike(testing)) return sourceFromAdapter(createTestingApiAdapter(testing), () => 'native');
  return undefined;
}

/** Whether the browser offers `<form toolname>` itself (true wherever it has the native API). */
export function browserReadsToolForms(): boolean {
  return isModelContextLike(readProperty(document, 'modelContext'));
}

function hasToolForm(name: string | undefined): boolean {
  if (name === undefined) return false;
  return [...document.querySelectorAll('form[toolname]')].some((form) => form.getAttribute('toolname') === name);
}
