import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import type { PortProtocol } from '../messaging/port-channel';
import { modelUsageSchema } from '../engines/model-usage-schema';
import type { Trial } from '../engines/run-trial';
import { engineStatusSchema, type EngineStatus } from './session-state';

/**
 * How a load the options page asked for ended: `loaded`, `failed` (the status says why), or
 * `not-on-gpu` (the engine chosen now holds no model on this computer's GPU: a server, Chrome's
 * built-in model). A load the page stopped ends as `failed` too, unheard: the page closed its port.
 */
const modelLoadOutcomes = ['loaded', 'failed', 'not-on-gpu'] as const;
export type ModelLoadOutcome = (typeof modelLoadOutcomes)[number];

/** A trial's reply as `runTrial` tells it, checked as it crosses from the worker. */
const trialSchema = lazySchema(() =>
  z.object({
    running: z.boolean(),
    reply: z.string(),
    thinking: z.boolean().optional(),
    usage: modelUsageSchema().optional(),
    failure: z.object({ message: z.string(), hint: z.string().optional() }).optional(),
    cancelled: z.boolean().optional(),
  }),
);

/**
 * Background → options page, while the model the settings name loads at the page's asking: the
 * engine's status at each change (the side panels see the same), then how it ended; on the trial's
 * port, then the trial's reply as it comes, until it has ended.
 */
const modelLoadNewsSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('status'), status: engineStatusSchema() }),
    z.object({ type: z.literal('ended'), outcome: z.enum(modelLoadOutcomes), status: engineStatusSchema() }),
    z.object({ type: z.literal('trial'), trial: trialSchema() }),
  ]),
);

export type ModelLoadNews =
  | { type: 'status'; status: EngineStatus }
  | { type: 'ended'; outcome: ModelLoadOutcome; status: EngineStatus }
  | { type: 'trial'; trial: Omit<Trial, 'progress'> };

/**
 * The options page's "Download now": opening this port loads the model the settings name, as a
 * request would load it; closing it stops the load. The page sends nothing on it.
 */
export const modelLoadPort: PortProtocol<never, ModelLoadNews> = {
  name: 'model-load',
  toBackground: lazySchema(() => z.never()),
  toClient: modelLoadNewsSchema as () => z.ZodType<ModelLoadNews>,
};

/**
 * The options page's "Try it" for an engine that holds its model on the GPU: the model loads as for
 * Download now, then answers one short request in the worker, which holds it (the page would need
 * a second copy). Closing the port stops either.
 */
export const modelTrialPort: PortProtocol<never, ModelLoadNews> = { ...modelLoadPort, name: 'model-trial' };

/**
 * The options page follows the engine's status while it shows WebLLM's download: a load another
 * page began (a side panel's request, another options tab) shows there as it goes. Opening the
 * port loads nothing; the background tells the status now, then at each change the page shows.
 */
export const modelStatusPort: PortProtocol<never, ModelLoadNews> = { ...modelLoadPort, name: 'model-status' };

/**
 * Background → extension pages, once as a load of the engine's model begins: an options page
 * whose following lapsed (the worker stopped while idle, closing its port) follows again.
 */
export const modelLoadingSchema = lazySchema(() => z.object({ type: z.literal('model-loading') }));
export type ModelLoading = z.infer<ReturnType<typeof modelLoadingSchema>>;
