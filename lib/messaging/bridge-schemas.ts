import { z } from 'zod/mini';
import { errorPayloadSchema } from './error-payload';
import { lazySchema } from './lazy-schema';

/**
 * What the content script accepts from the page's world. Only the bridge can send on the private
 * channel, but the bridge shares its world with the page, so each is only data: a tool list
 * (checked like any page data) or the answer to a call the content script made (matched against
 * its own random call ids). Nothing here starts anything.
 */
export const bridgeReplySchema = lazySchema(() => {
  const callIdSchema = z.string().check(z.maxLength(100));
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('bridge-ready') }),
    z.object({
      type: z.literal('bridge-tools'),
      tools: z.array(z.unknown()),
      unreadable: z.array(z.object({ name: z.unknown(), reason: z.string() })),
    }),
    z.object({ type: z.literal('call-result'), callId: callIdSchema, result: z.nullable(z.string()) }),
    z.object({ type: z.literal('call-error'), callId: callIdSchema, error: errorPayloadSchema() }),
    z.object({ type: z.literal('form-no-response'), callId: callIdSchema }),
    z.object({ type: z.literal('form-pending'), callId: callIdSchema }),
  ]);
});
export type BridgeReply = z.infer<ReturnType<typeof bridgeReplySchema>>;
