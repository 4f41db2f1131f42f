// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { memorySettings, showOptionsPage } from './support/show-options-page';
import type { GpuLike } from '../../lib/engines/webgpu-check';
import type { Settings } from '../../lib/settings';

// Each page is unmounted: one left behind would still go to the places asked for in this document.
const shownPages: HTMLElement[] = [];
afterEach(() => {
  for (const root of shownPages.splice(0)) render(null, root);
  document.body.innerHTML = '';
  history.replaceState(null, '', location.pathname);
});

/** The options page opened at an address ending in `hash`, as a notice's "Open the options" opens it. */
async function openAt(hash: string, settings: Partial<Settings> = {}, gpu?: GpuLike) {
  history.replaceState(null, '', `${location.pathname}${hash}`);
  const page = showOptionsPage({ settings: memorySettings(settings), caches: createFakeCacheStorage().storage, ...(gpu ? { gpu } : {}) });
  shownPages.push(page.root);
  await vi.waitFor(() => expect(page.root.querySelector('#behaviour-heading')).not.toBeNull());
  return page;
}

const focusedLabel = () => document.activeElement?.closest('label')?.querySelector('span')?.textContent;

describe('the options page opened at a place', () => {
  it('gives the field that place names the focus, once the settings are shown, and takes the place out of the address', async () => {
    await openAt('#reply-tokens');
    await vi.waitFor(() => expect(focusedLabel()).toBe('Longest reply, in tokens'));
    expect(location.hash).toBe('');
  });

  it('goes to each place asked for while it stays open, the same one again included', async () => {
    await openAt('#max-steps');
    await vi.waitFor(() => expect(focusedLabel()).toBe('Maximum steps per request'));
    (document.activeElement as HTMLElement).blur();
    for (const [hash, label] of [['#tool-timeout', 'Seconds a tool may take before the run stops'], ['#max-steps', 'Maximum steps per request']]) {
      location.hash = hash!;
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await vi.waitFor(() => expect(focusedLabel()).toBe(label));
    }
  });

  it('goes to the server\'s address where its models are not listed yet, and to the engine chosen where the place is another engine\'s', async () => {
    await openAt('#model', { engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:9/v1' });
    await vi.waitFor(() => expect(focusedLabel()).toBe('Address'));
    document.body.innerHTML = '';

    await openAt('#server-key', { engine: 'replay' });
    await vi.waitFor(() => expect((document.activeElement as HTMLInputElement | null)?.value).toBe('replay'));
  });

  it('goes to the engine chosen where the place\'s field cannot be changed: WebLLM\'s models where it cannot run', async () => {
    // The check of WebGPU answers after the settings are shown, as in Chrome.
    const lateNoAdapter: GpuLike = { requestAdapter: () => new Promise((resolve) => setTimeout(() => resolve(null), 50)) };
    await openAt('#model', { engine: 'webllm' }, lateNoAdapter);
    await vi.waitFor(() => expect((document.querySelector('[data-testid="webllm-model"]') as HTMLSelectElement | null)?.disabled).toBe(true));
    await vi.waitFor(() => expect((document.activeElement as HTMLInputElement | null)?.value).toBe('webllm'));
  });

  it('leaves the focus where it is at an address that names no place', async () => {
    await openAt('#somewhere');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(document.body);
    expect(location.hash).toBe('#somewhere');
  });
});
