import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { followRunInAddress } from '../../lib/traces/run-address';
import type { StoredTrace } from '../../lib/traces/trace-schema';

function addressBar(href: string) {
  const bar = {
    location: { href },
    history: { replaceState: (_data: unknown, _unused: string, url: URL) => void (bar.location.href = url.href) },
  };
  return bar;
}

describe('the trace viewer address', () => {
  it('names the open run, and no longer one that is not stored (deleted while open)', () => {
    const openRunId = signal<string | undefined>(undefined);
    const openTrace = signal<StoredTrace | null | undefined>(undefined);
    const bar = addressBar('chrome-extension://id/traces.html');
    const stop = followRunInAddress({ openRunId, openTrace }, bar);
    openRunId.value = 'run-1';
    expect(bar.location.href).toBe('chrome-extension://id/traces.html?run=run-1');
    openTrace.value = { run: { id: 'run-1' } } as unknown as StoredTrace;
    expect(bar.location.href).toBe('chrome-extension://id/traces.html?run=run-1');
    openTrace.value = null;
    expect(bar.location.href).toBe('chrome-extension://id/traces.html');
    openRunId.value = undefined;
    openTrace.value = undefined;
    expect(bar.location.href).toBe('chrome-extension://id/traces.html');
    stop();
  });
});
