import { z } from 'zod/mini';
import { lazySchema } from './lazy-schema';

/** Errors cross contexts as `{name, message}` and are checked by name. */
export const errorPayloadSchema = lazySchema(() =>
  z.object({
    name: z.string().check(z.maxLength(200)),
    message: z.string().check(z.maxLength(10_000)),
  }),
);
