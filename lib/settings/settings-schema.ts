import { z } from 'zod';
import { engineIds, replyTokensRange } from '../engines/engine';
import { maxServerKeyLength } from '../engines/openai/server-key';
import { normalizeSiteOrigin } from './normalize-site-origin';

/** The person's settings. Stored typed and versioned; anything unreadable falls back to defaults. */
const settingsSchema = z.object({
  engine: z.enum(engineIds).default('webllm'),
  /** The model id for the chosen engine; empty means the engine's default for this machine. */
  model: z.string().max(200).default(''),
  /**
   * The model last picked for each engine not chosen now: choosing that engine again brings it
   * back, so going through the engines (arrow keys move a radio group's choice) loses no pick.
   */
  modelByEngine: z.partialRecord(z.enum(engineIds), z.string().max(200)).default({}),
  temperature: z.number().min(0).max(2).default(0.2),
  maxSteps: z.number().int().min(1).max(30).default(8),
  /**
   * `ask-unless-read-only`: tools not marked read-only wait for the person unless the site is
   * allowed; `ask-always`: every call waits. Consequential tools always wait, whatever this says.
   */
  confirmation: z.enum(['ask-unless-read-only', 'ask-always']).default('ask-unless-read-only'),
  toolOutputLimit: z.number().int().min(200).max(100_000).default(4000),
  /** The most tokens one reply of the model may take: a longer one is cut off there, and says so. */
  replyTokens: z.number().int().min(replyTokensRange.min).max(replyTokensRange.max).default(1024),
  /** Minutes a model on the GPU stays loaded after its last use, its load or a reply (WebLLM), so a follow-up does not load it again. */
  modelKeptMinutes: z.number().int().min(0).max(60).default(5),
  /** A tool that has not answered after this many seconds stops the run. */
  toolTimeoutSeconds: z.number().min(1).max(600).default(30),
  /** Origins where tools that change the page run without asking (consequential ones still ask). */
  allowedSites: z.array(z.string()).default([]),
  /** Origins where the agent is off. */
  disabledSites: z.array(z.string()).default([]),
  ranker: z.enum(['fielded-bm25', 'word-overlap']).default('fielded-bm25'),
  openaiBaseUrl: z.string().default('http://localhost:11434/v1'),
  /**
   * The key the server at `openaiBaseUrl` asks for, if any (llama.cpp's and vLLM's `--api-key`, LM
   * Studio's authentication, a hosted endpoint): sent to it alone, as `Authorization: Bearer`.
   * Printable ASCII, as an HTTP header must be.
   */
  openaiApiKey: z.string().max(maxServerKeyLength).regex(/^[\x21-\x7e]*$/).default(''),
  /** Models that write `<tool_call>` tags (Qwen, Hermes 3, SmolLM2): constrain a `<tool_call>` body to the shown tools' schemas. */
  constrainedDecoding: z.boolean().default(false),
});

export type Settings = z.infer<typeof settingsSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});

/** How long a model on the GPU stays loaded after its last use, as the settings say. */
export const modelKeptMs = (settings: Pick<Settings, 'modelKeptMinutes'>): number => settings.modelKeptMinutes * 60_000;

/**
 * Reads stored settings leniently: a bad field falls back to its default, the rest is kept. In a
 * list or a record only the bad element goes: one stray entry must not drop every site where the
 * agent is off (and the next write would store the empty list).
 */
export function parseSettings(value: unknown): Settings {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const settings: Record<string, unknown> = { ...defaultSettings };
  for (const key of Object.keys(settingsSchema.shape) as (keyof Settings)[]) {
    const field = settingsSchema.shape[key].safeParse(readablePart(key, record[key]));
    if (field.success) settings[key] = field.data;
  }
  if ('engine' in record && settings.engine !== record.engine) Object.assign(settings, withDefaultEngine(settings as Settings));
  return settings as Settings;
}

/**
 * The settings once the engine fell back to the default: the stored model names another engine's,
 * so the default gets back the model kept for it, as choosing it in the options page would.
 */
function withDefaultEngine(settings: Settings): Partial<Settings> {
  const { [settings.engine]: kept = '', ...others } = settings.modelByEngine;
  return { model: kept, modelByEngine: others };
}

/** The elements of a stored list or record that can be read, the value itself for other fields. */
function readablePart(key: keyof Settings, value: unknown): unknown {
  if (key === 'allowedSites' || key === 'disabledSites') return Array.isArray(value) ? readableSites(value, key === 'disabledSites') : value;
  if (key !== 'modelByEngine' || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const engines: readonly string[] = engineIds;
  return Object.fromEntries(Object.entries(value).filter(([engine, model]) => engines.includes(engine) && typeof model === 'string' && model.length <= 200));
}

/**
 * An entry where the agent is off as it was meant: an earlier version stored a site typed with port
 * 80 ("shop.example:80") as https on port 80, and the agent stayed on at the http site. Port 80 is
 * plain http's. Only that list: a site allowed to run tools unasked is never widened to another.
 */
function asMeant(site: string): string {
  return site.replace(/^\s*https:\/\/([^/:]+):80\/?\s*$/i, 'http://$1');
}

/**
 * The entries of a stored site list, each as the options page keeps a typed one: a hand-edited or
 * imported "bank.example" would be listed and match no page, and where the agent is off a miss is
 * the harmful mistake. An entry that is no site is kept as it is, for the person to see and remove;
 * a blank one, which names nothing and matches no page, would be a row with nothing to see, and goes.
 */
function readableSites(value: unknown[], agentOff: boolean): string[] {
  const written = value.filter((site): site is string => typeof site === 'string' && site.trim() !== '');
  const sites = written.map((site) => normalizeSiteOrigin(agentOff ? asMeant(site) : site) ?? site);
  return [...new Set(sites)];
}
