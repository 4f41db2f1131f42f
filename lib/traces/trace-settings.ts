import { storage } from 'wxt/utils/storage';
import { z } from 'zod';

/**
 * Whether runs are kept as traces at all, and how many: the oldest runs go first once either
 * limit is passed.
 */
const traceSettingsSchema = z.object({
  keepTraces: z.boolean().default(true),
  maxRuns: z.number().int().min(1).max(10_000).default(200),
  maxMegabytes: z.number().min(1).max(2_000).default(50),
});

export type TraceSettings = z.infer<typeof traceSettingsSchema>;

/** The limits the oldest runs are removed by. */
export type RetentionLimits = Pick<TraceSettings, 'maxRuns' | 'maxMegabytes'>;

export const defaultTraceSettings: TraceSettings = traceSettingsSchema.parse({});

/** Reads stored settings leniently: a bad field falls back to its default. */
function parseTraceSettings(value: unknown): TraceSettings {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const maxRuns = traceSettingsSchema.shape.maxRuns.safeParse(record.maxRuns);
  const maxMegabytes = traceSettingsSchema.shape.maxMegabytes.safeParse(record.maxMegabytes);
  return {
    keepTraces: record.keepTraces !== false,
    maxRuns: maxRuns.success ? maxRuns.data : defaultTraceSettings.maxRuns,
    maxMegabytes: maxMegabytes.success ? maxMegabytes.data : defaultTraceSettings.maxMegabytes,
  };
}

// Defined on first use: a storage item starts reading storage as soon as it is defined, which
// only works inside the extension (benchmarks import the recorder in plain Node).
let item: ReturnType<typeof defineItem> | undefined;
function defineItem() {
  return storage.defineItem<TraceSettings>('local:traceSettings', { fallback: defaultTraceSettings, version: 1 });
}
const traceSettingsItem = () => (item ??= defineItem());

/** Version 1 of the stored trace settings. */
export async function loadTraceSettings(): Promise<TraceSettings> {
  return parseTraceSettings(await traceSettingsItem().getValue());
}

export async function saveTraceSettings(change: Partial<TraceSettings>): Promise<TraceSettings> {
  const next = parseTraceSettings({ ...(await loadTraceSettings()), ...change });
  await traceSettingsItem().setValue(next);
  return next;
}

/** Calls `listener` with the settings whenever they are saved (by this page or another); gives back how to stop. */
export function watchTraceSettings(listener: (settings: TraceSettings) => void): () => void {
  return traceSettingsItem().watch((value) => listener(parseTraceSettings(value)));
}
