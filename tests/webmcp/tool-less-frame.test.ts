// @vitest-environment happy-dom
import { expect, it, vi } from 'vitest';
import { setupPageTools } from '@/lib/webmcp/setup-page-tools';

// Every use of zod by the extension's own modules, from the moment they load: building a schema
// starts with one. The content script runs in every frame, and most frames offer no tools.
const zodUses = vi.hoisted(() => [] as string[]);
vi.mock('zod/mini', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zod/mini')>();
  const z = new Proxy(actual.z, {
    get(target, key, receiver) {
      zodUses.push(String(key));
      return Reflect.get(target, key, receiver);
    },
  });
  return { ...actual, z };
});

it('builds no schema in a frame whose page offers no tools, from its start to long after', async () => {
  const stop = setupPageTools();
  try {
    document.body.innerHTML = '<main><h1>News</h1><p>An article without tools.</p></main>';
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(zodUses).toEqual([]);
  } finally {
    stop();
  }
});
