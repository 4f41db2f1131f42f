import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import { traceLimits } from './trace-limits';

/**
 * What became of a call the model wrote, in the recording or in the replay: `cut-off`, made but
 * ended with the run before it answered (stopped, timed out, its page gone, a question nobody
 * answered); `not-begun`, a later call of the same reply, which the run ended before; `not-run`,
 * not made at all.
 */
const callStatusSchema = lazySchema(() => z.enum(['ran', 'invalid-arguments', 'unknown-tool', 'declined', 'repeated', 'duplicate', 'cut-off', 'not-begun', 'not-run']));

const resultSchema = lazySchema(() => z.object({ text: z.string().max(traceLimits.result), isError: z.boolean().optional() }));

/**
 * One place where a replay went differently from the recording, at the step where it did. Built
 * the first time a replay's end is checked (see lazySchema), not at every start of the worker.
 */
export const divergenceSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** The page offered the model other tools at this step. */
    z.object({
      type: z.literal('tool-list'),
      step: z.number().int(),
      added: z.array(z.string()),
      removed: z.array(z.string()),
      /** Same name, another description or other parameters. */
      changed: z.array(z.string()),
    }),
    /** A call that ran in the recording fails now (or the other way round). */
    z.object({
      type: z.literal('call'),
      step: z.number().int(),
      name: z.string(),
      recorded: callStatusSchema(),
      replayed: callStatusSchema(),
      /** Why, in the words the model was given. */
      message: z.string().max(traceLimits.message).optional(),
    }),
    /** The call ran both times, and the page answered differently. */
    z.object({ type: z.literal('result'), step: z.number().int(), name: z.string(), recorded: resultSchema(), replayed: resultSchema() }),
    /** The replay took a different number of steps. */
    z.object({ type: z.literal('steps'), step: z.number().int(), recorded: z.number().int(), replayed: z.number().int() }),
  ]),
);

export type CallStatus = z.infer<ReturnType<typeof callStatusSchema>>;
export type Divergence = z.infer<ReturnType<typeof divergenceSchema>>;
