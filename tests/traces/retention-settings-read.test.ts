import { describe, expect, it } from 'vitest';
import type { TraceClient } from '@/lib/traces/trace-client';
import { defaultTraceSettings, type TraceSettings } from '@/lib/traces/trace-settings';
import { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

/** A viewer whose retention settings are read as the test answers, and watched as it tells. */
function viewerReading() {
  let answer!: { resolve(settings: TraceSettings): void; reject(error: Error): void };
  let listener!: (settings: TraceSettings) => void;
  const model = new TraceViewerModel({
    client: {} as TraceClient,
    download: () => {},
    settings: {
      load: () => new Promise<TraceSettings>((resolve, reject) => (answer = { resolve, reject })),
      save: async () => defaultTraceSettings,
      watch: (heard) => ((listener = heard), () => {}),
    },
  });
  return { model, answer: () => answer, saved: (settings: TraceSettings) => listener(settings) };
}

const kept90 = { ...defaultTraceSettings, maxRuns: 90 };

describe("the viewer's retention settings as they are read", () => {
  it('keeps a change another viewer saved while the first read went on, which the read may not hold', async () => {
    const { model, answer, saved } = viewerReading();
    const loading = model.loadRetention();
    saved(kept90);
    answer().resolve(defaultTraceSettings);
    await loading;
    expect(model.retention.value).toEqual(kept90);
  });

  it('keeps what it heard where the read fails, and says why', async () => {
    const { model, answer, saved } = viewerReading();
    const loading = model.loadRetention();
    saved(kept90);
    answer().reject(new Error('storage is gone'));
    await loading;
    expect(model.retention.value).toEqual(kept90);
    expect(model.notice.value?.text).toContain('storage is gone');
  });

  it('shows what it read where nothing was heard meanwhile', async () => {
    const { model, answer } = viewerReading();
    const loading = model.loadRetention();
    answer().resolve(kept90);
    await loading;
    expect(model.retention.value).toEqual(kept90);
  });
});
