// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { modelCatalog } from '../../lib/engines/model-catalog';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { memorySettings, showOptionsPage } from './support/show-options-page';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A server that refuses the page's quiet ask as it opens, then answers a Connect only when told to. */
function lateServer() {
  let answer!: () => void;
  let calls = 0;
  const fetch = (async () => {
    calls += 1;
    if (calls === 1) throw new TypeError('Failed to fetch');
    await new Promise<void>((resolve) => (answer = resolve));
    return new Response(JSON.stringify({ data: [{ id: 'qwen3:4b' }] }), { headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, asked: () => calls, answer: () => answer() };
}

it('keeps the WebLLM model picked when a Connect answers after the person chose WebLLM, and the server\'s own pick is the one dropped', async () => {
  const webllmPick = modelCatalog[1]!.id;
  const stored = memorySettings({ engine: 'openai', model: 'llama3.2:3b', modelByEngine: { webllm: webllmPick } });
  const server = lateServer();
  const { root, model } = showOptionsPage({ settings: stored, fetch: server.fetch, caches: createFakeCacheStorage().storage });
  await vi.waitFor(() => expect(model.serverFailure.value).toBeDefined());

  const connecting = model.connectServer('http://gpu-box.lan:11434/v1', '');
  await vi.waitFor(() => expect(server.asked()).toBe(2));
  await model.chooseEngine('webllm');
  server.answer();
  await connecting;

  const webllmSelect = () => root.querySelector<HTMLSelectElement>('section[aria-labelledby="webllm-heading"] select');
  await vi.waitFor(() => expect(webllmSelect()?.value).toBe(webllmPick));
  expect(await stored.load()).toMatchObject({ engine: 'webllm', model: webllmPick, modelByEngine: { openai: '' } });
});
