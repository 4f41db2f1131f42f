import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import { engineStatusSchema, sessionStateSchema, turnSchema } from './session-state';

/** The name of the port a side panel opens to the background. */
export const agentPortName = 'agent-session';

/** Side panel → background. Built when a panel's first message arrives (see lazySchema), like the schemas below. */
export const panelMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** `lookAgain`: the panel turned to this tab (not a reconnect): its frames look for tools anew. */
    z.object({ type: z.literal('subscribe'), tabId: z.number().int(), lookAgain: z.boolean().optional() }),
    z.object({ type: z.literal('send'), tabId: z.number().int(), text: z.string().min(1).max(20_000) }),
    z.object({ type: z.literal('stop'), tabId: z.number().int() }),
    z.object({ type: z.literal('new-chat'), tabId: z.number().int() }),
    /** Brings back the conversation "New chat" put aside, while the snapshot says it can (`canUndoNewChat`). */
    z.object({ type: z.literal('undo-new-chat'), tabId: z.number().int() }),
    /** Reloads the tab, so that a page open since before the extension gets its content script. */
    z.object({ type: z.literal('reload-page'), tabId: z.number().int() }),
    z.object({
      type: z.literal('approve'),
      tabId: z.number().int(),
      callId: z.string(),
      decision: z.enum(['allow-once', 'allow-site', 'deny']),
    }),
    /**
     * The person turned the agent off (or back on) on the site their panel shows, `origin`: the site
     * they saw, even if the tab has moved on since (see `disabledSitesWith`).
     */
    z.object({ type: z.literal('set-agent-off'), tabId: z.number().int(), origin: z.string().max(2_048), off: z.boolean() }),
    /** The person took back "Allow on this site" for `origin`, the site their panel shows: its tools ask again. */
    z.object({ type: z.literal('stop-allowing-site'), tabId: z.number().int(), origin: z.string().max(2_048) }),
    /** Keeps the service worker awake while a model loads or generates. */
    z.object({ type: z.literal('heartbeat') }),
  ]),
);

/** Background → side panel. Prose streams as deltas; everything else replaces a whole turn. */
export const sessionMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('snapshot'), state: sessionStateSchema() }),
    z.object({ type: z.literal('turn'), tabId: z.number().int(), turn: turnSchema() }),
    z.object({ type: z.literal('prose-delta'), tabId: z.number().int(), turnId: z.string(), text: z.string() }),
    z.object({ type: z.literal('engine'), tabId: z.number().int(), engine: engineStatusSchema() }),
    /**
     * What the panel asked could not be done. `tabId`: the tab it was asked for, where the error
     * answers a message about one: a panel that has turned to another tab since gives it back there.
     */
    z.object({ type: z.literal('error'), tabId: z.number().int().optional(), message: z.string() }),
  ]),
);

export type PanelMessage = z.infer<ReturnType<typeof panelMessageSchema>>;
export type SessionMessage = z.infer<ReturnType<typeof sessionMessageSchema>>;

/**
 * What the background sends, as a one-off message to the extension's pages, when a tab's session
 * changed (a new snapshot of it, a turn): an idle panel lets its port go with the worker (so the
 * worker can sleep) and connects again on this if it follows that tab; a panel holding a port
 * ignores it. Without `tabId`, every resting panel connects. At most one a second for each tab.
 */
export const panelWakeSchema = lazySchema(() => z.object({ type: z.literal('panel-wake'), tabId: z.number().int().optional() }));
export type PanelWake = z.infer<ReturnType<typeof panelWakeSchema>>;
