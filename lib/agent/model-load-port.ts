import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import type { PortProtocol } from '../messaging/port-channel';
import { engineStatusSchema, type EngineStatus } from './session-state';

/**
 * How a load the options page asked for ended: `loaded`, `failed` (the status says why), or
 * `not-on-gpu` (the engine chosen now holds no model on this computer's GPU: a server, Chrome's
 * built-in model). A load the page stopped ends unheard: the page closed its port.
 */
export const modelLoadOutcomes = ['loaded', 'failed', 'not-on-gpu'] as const;
export type ModelLoadOutcome = (typeof modelLoadOutcomes)[number];

/**
 * Background → options page, while the model the settings name loads at the page's asking: the
 * engine's status at each change (the side panels see the same), then how it ended.
 */
const modelLoadNewsSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('status'), status: engineStatusSchema() }),
    z.object({ type: z.literal('ended'), outcome: z.enum(modelLoadOutcomes), status: engineStatusSchema() }),
  ]),
);

export type ModelLoadNews = { type: 'status'; status: EngineStatus } | { type: 'ended'; outcome: ModelLoadOutcome; status: EngineStatus };

/**
 * The options page's "Download now": opening this port loads the model the settings name, as a
 * request would load it; closing it stops the load. The page sends nothing on it.
 */
export const modelLoadPort: PortProtocol<never, ModelLoadNews> = {
  name: 'model-load',
  toBackground: lazySchema(() => z.never()),
  toClient: modelLoadNewsSchema as () => z.ZodType<ModelLoadNews>,
};
