import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import { turnSchema, type Turn } from './session-state';

export type TurnItem = Turn['items'][number];

/**
 * A turn as its own key holds it: everything but its items, and how many they are. Each item has
 * a key of its own, so that while a turn's last prose streams, that prose alone is written again,
 * not the long tool result or the prose of a step before it (see `createSessionStore`).
 */
export const turnHeadSchema = lazySchema(() => turnSchema().extend({ items: z.number().int().min(0) }));

export type TurnHead = z.infer<ReturnType<typeof turnHeadSchema>>;

export function turnHeadOf({ items, ...head }: Turn): TurnHead {
  return { ...head, items: items.length };
}

/**
 * The turn a head makes with its items by index; none where one of them is missing or did not
 * read (`undefined`).
 */
export function turnFrom(head: TurnHead, items: ReadonlyMap<number, TurnItem | undefined>): Turn | undefined {
  // A head that counts more items than there are keys cannot be whole: not even one list that long is made.
  if (head.items > items.size) return undefined;
  const found = Array.from({ length: head.items }, (_, index) => items.get(index));
  return found.every((item) => item !== undefined) ? { ...head, items: found } : undefined;
}

/** Whether two heads say the same: every field of a head is a plain value. */
export function sameTurnHead(a: TurnHead, b: TurnHead): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof TurnHead>);
  return [...fields].every((field) => a[field] === b[field]);
}
