import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import { isPlainRecord } from '../messaging/is-plain-record';
import { traceOutcomes } from '../traces/trace-outcomes';
import { approvalReasons } from './approval-policy';

/**
 * A tool call as the person sees it on its card. Each schema of this file is built the first time
 * it checks something (see lazySchema): the service worker loads it at every start, and only a start
 * that restores stored chats, or a side panel's message, checks one.
 */
const toolCardSchema = lazySchema(() =>
  z.object({
    kind: z.literal('tool'),
    callId: z.string(),
    name: z.string(),
    /** The page's own words for the tool (its `title`), where it gives them: the card is headed by them. */
    title: z.string().optional(),
    /** Checked, not rebuilt, so that a property named "__proto__" reaches the panel (see isPlainRecord). */
    arguments: z.custom<Record<string, unknown>>(isPlainRecord, { error: 'Invalid input: expected a JSON object' }),
    /**
     * `declined`: the person said no; `not-run`: the request ended before anyone answered or before
     * the call reached the page, the run stopped at this call, the model having made it twice
     * already, the model wrote this very call before in the same reply, or the page changed or
     * removed its tool after the model was shown it (`withdrawn`);
     * `unanswered`: the request ended while the tool ran, or the document that ran it went before it
     * answered (it navigated, reloaded, or its frame was removed), so it may still have done its work;
     * `unknown`: the model asked for a tool it was not offered (the page has none by that name, or
     * it was not among the tools shown at that step); `unreadable`: the model wrote a call that could
     * not be read (its `name` is empty where not even the tool's name could).
     */
    state: z.enum(['waiting', 'running', 'done', 'failed', 'unanswered', 'declined', 'not-run', 'invalid', 'unknown', 'unreadable']),
    /**
     * The call was handed to the page; a `running` card without it was still being checked or asked
     * about, as the worker that ran it knows (a saved card may lag behind: see `closeOpenCards`).
     */
    sent: z.literal(true).optional(),
    /** The language the page says its words are in (its `lang`): its title, description and result are marked so. */
    lang: z.string().regex(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,5}$/).optional(),
    /** When the call was handed to the page (milliseconds since the epoch): a running card counts from it. */
    sentAt: z.number().optional(),
    /** Why it waits: the tool is consequential, it may change the page, or the person confirms every call. */
    approvalReason: z.enum(approvalReasons).optional(),
    /** The page says the tool only reads (`readOnlyHint`, not consequential): running it again changes nothing. */
    readOnly: z.literal(true).optional(),
    /** A `not-run` call whose tool the page changed or removed after the model was shown it: not the model's mistake (an `unknown` one in a chat saved before). */
    withdrawn: z.literal(true).optional(),
    /**
     * False where "allow on this site" cannot hold (a page without a web origin, a frame of another
     * site) or must not be kept (a private window's tab).
     */
    siteChoice: z.boolean().optional(),
    /** The site of the frame that offers the tool, where it is not the tab's own. */
    origin: z.string().optional(),
    /** Why a call that waited ran without the person's answer to it (the site was allowed meanwhile). */
    allowedBecause: z.string().optional(),
    /** What the page says the tool does (its description, cut), shown while it waits. */
    description: z.string().optional(),
    /** For a call asked about as its request read strangers' text (`read-untrusted`): what it read first, where that request read it. */
    untrustedRead: z.string().optional(),
    result: z.string().optional(),
    durationMs: z.number().optional(),
    /** The result the page this call loaded gives (its JSON-LD), where a form's post ended the run. */
    pageResult: z.string().optional(),
    /**
     * The page this call loaded, where a form's post ended the run: the form was sent. Its title is
     * the page's own words. `byScript`: a script's tool loaded it (no form was sent), and it gave no
     * result of its own. `status`: the page answered the form with an error (404).
     */
    loadedPage: z.object({ url: z.string(), title: z.string().optional(), byScript: z.literal(true).optional(), status: z.number().int().min(400).max(599).optional() }).optional(),
    /** How much of the result the model read, where less than all: `characters` of `of`. */
    read: z.object({ characters: z.number().int().min(0), of: z.number().int().min(0) }).optional(),
    /** For an `unknown` tool the page does offer: how many tools the model was shown instead. */
    shownCount: z.number().int().min(0).optional(),
  }),
);

const proseItemSchema = lazySchema(() => z.object({ kind: z.literal('prose'), text: z.string() }));

export const turnItemSchema = lazySchema(() => z.discriminatedUnion('kind', [proseItemSchema(), toolCardSchema()]));

/** How a turn ended: the same words its trace keeps. */
const turnOutcomeSchema = lazySchema(() => z.enum(traceOutcomes));

/** One request of the person and everything the agent did for it. */
export const turnSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    request: z.string(),
    items: z.array(turnItemSchema()),
    /** Absent while the turn runs. */
    outcome: turnOutcomeSchema().optional(),
    /** What the person should know about how it ended, in words. */
    notice: z.string().optional(),
    /** The model itself failed (a server down, the GPU lost): the way to the options goes with the notice. */
    engineFailed: z.boolean().optional(),
    /** The model could not load, so nothing ran: the same request may simply be sent again. */
    loadFailed: z.boolean().optional(),
    /** The request alone did not fit in the model's context: the panel offers to put it back in the box, to shorten it. */
    requestTooLong: z.boolean().optional(),
    /** The model's reply held nothing to show (empty, or only its thinking): asked again, it may answer. */
    noAnswer: z.boolean().optional(),
    /**
     * The model's reply reached its length limit and was cut off, mid-thought included, where that
     * limit can still be raised: asked again (with a higher "Longest reply", as its notice offers) it
     * may end.
     */
    cutOff: z.boolean().optional(),
    /** The agent was off on the site, so the run stopped or never began: once it is on again, the same request may be sent again. */
    agentOff: z.boolean().optional(),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    runId: z.string().optional(),
    /**
     * Why the run has no trace (no `runId`), which the panel says: it went on in a private window,
     * the person keeps no traces, or they cannot be stored (a newer version's database).
     */
    notRecorded: z.enum(['private-window', 'traces-off', 'cannot-store']).optional(),
    /**
     * How many of the requests before this one the model read with it (see SessionHistory.forRun):
     * those its context had room for, on this site. Absent before the model was asked.
     */
    requestsRead: z.number().int().min(0).optional(),
  }),
);

export const engineStatusSchema = lazySchema(() =>
  z.object({
    engineId: z.string(),
    engineLabel: z.string(),
    model: z.string(),
    state: z.enum(['idle', 'loading', 'ready', 'generating', 'error']),
    /** 0..1 while loading. */
    progress: z.number().optional(),
    progressText: z.string().optional(),
    tokensPerSecond: z.number().optional(),
    /**
     * This tab's reply was asked for at this time (milliseconds since the epoch) and nothing of it has
     * come yet: the model still reads the prompt, or the server has not answered (it may be loading
     * the model). The panel counts the wait, which can be minutes, rather than saying it generates.
     */
    firstWordSince: z.number().optional(),
    /** Since `firstWordSince` the model has only thought (a server's separate reasoning): no word of the reply yet. */
    thinking: z.literal(true).optional(),
    /**
     * This tab's reply had begun, and nothing more of it has come since this time for a while (see
     * `quietReplyMs`): a server that stalled, say. The panel counts the silence rather than saying it generates.
     */
    quietSince: z.number().optional(),
    error: z.string().optional(),
    /** What the person can do about the error. */
    hint: z.string().optional(),
    /** The engine's code for the error (`EngineErrorCode`), where it gave one: a server out of reach is `server-down`. */
    errorCode: z.string().optional(),
    /** Whether the error came from the check before any request, while loading the model, or in the middle of a reply. */
    errorDuring: z.enum(['check', 'load', 'reply']).optional(),
    /** The run whose reply failed had brought nothing of a reply yet (a server that never answered, say): it failed before answering. */
    beforeFirstWord: z.literal(true).optional(),
    /** The run's latest reply had brought nothing when it failed (a server gone between two replies was not reached). */
    beforeReply: z.literal(true).optional(),
    /** Megabytes the first request downloads (once), while the model is not stored yet. */
    downloadMB: z.number().optional(),
    /** The model is downloaded only at the person's click in the options (Chrome's built-in model), not by a request. */
    goAheadFirst: z.boolean().optional(),
    /** The GPU is a software adapter: the model will run, slowly (said before the first request). */
    slowGpu: z.literal(true).optional(),
    /** A load that has reported nothing for a minute (a stalled download): the panel says so. */
    stalled: z.boolean().optional(),
    /** The tab whose reply, or run, this tab's request waits for (see `waitingWords`): the panel offers to go there. */
    waitingForTab: z.number().int().optional(),
    /** Where a new model waits for several tabs' runs, how many besides `waitingForTab`'s. */
    waitingForMore: z.number().int().optional(),
  }),
);

/** Why a tab's chat is gone: the extension was updated to a new version, or reloaded as it was. */
export const chatEndingSchema = lazySchema(() => z.object({ cause: z.enum(['update', 'reload']), tracesKept: z.boolean() }));

/** Everything the side panel shows for one tab. */
export const sessionStateSchema = lazySchema(() =>
  z.object({
    tabId: z.number(),
    url: z.string(),
    origin: z.string(),
    turns: z.array(turnSchema()),
    /**
     * How many of the chat's first requests were not kept when the service worker stopped, the chat
     * past what storage holds; `tracesKept`: their runs are in the trace viewer.
     */
    turnsLeftOut: z.object({ count: z.number().int().min(1), tracesKept: z.boolean() }).optional(),
    running: z.boolean(),
    /** "New chat" put the conversation before it aside, and no request came since: Undo brings it back. */
    canUndoNewChat: z.boolean().optional(),
    toolCount: z.number(),
    /**
     * The page offered tools the agent refused (the inspector lists them, with why); absent where
     * none. Not a count: the registry sums up a long list of refusals in a line or two.
     */
    toolsRefused: z.literal(true).optional(),
    /**
     * False when the extension's content script does not answer in the tab's page: the page was
     * open before the extension was installed or updated (a reload fixes that), or it is a browser
     * page that no extension may read.
     */
    pageReachable: z.boolean(),
    /** Why a page the extension cannot read stays closed whatever a reload does (see `closedPageKind`). */
    closedPage: z.enum(['browser', 'file']).optional(),
    /** The page did not load (Chrome shows its error page: offline, a host that does not resolve): a reload once that is mended. */
    pageLoadFailed: z.literal(true).optional(),
    /**
     * Chrome unloaded the tab's page to save memory (a discarded tab): it offers nothing until it is
     * woken, and the browser tells no address of it.
     */
    pageAsleep: z.literal(true).optional(),
    /** A page without tools that is still loading: it may offer some once it has. */
    pageLoading: z.literal(true).optional(),
    /**
     * The page offers no tools, but the tab's chat was held on its site (a form's post brought the
     * tab to its result page, say): a request may still ask about it, which the model answers from
     * the chat alone.
     */
    askAboutChat: z.literal(true).optional(),
    suggestions: z.array(z.string()),
    engine: engineStatusSchema(),
    /** The person allowed tools that change the page on this site without asking. */
    siteAllowed: z.boolean(),
    /** The person turned the agent off on this site (see `agentOffOn`): no request runs here. */
    agentOff: z.boolean(),
    /** The entries of the person's list that keep it off here, as they are kept: the panel names them. */
    agentOffBy: z.array(z.string()),
    /**
     * The tab is in a private (incognito) window: its runs leave no trace, and the panel offers no
     * choice that would be saved for good ("Allow on this site", "Turn agent off").
     */
    privateWindow: z.boolean().optional(),
    /**
     * The tab had a chat that an update (or a reload) of the extension ended, when Chrome cleared it;
     * said until the next request here. `tracesKept`: its runs are in the trace viewer.
     */
    chatEnded: chatEndingSchema().optional(),
    /**
     * A run in another tab waits for the person's answer to a call: it goes on only once they answer
     * there. `name`: that tab as they know it (see `tabName`), where it may be named; `more`: how many
     * other tabs wait so too. Not a private window's tab in a normal window's panel.
     */
    askingElsewhere: z
      .object({ tabId: z.number().int(), name: z.string().max(200).optional(), more: z.number().int().nonnegative().optional() })
      .optional(),
  }),
);

export type ToolCard = z.infer<ReturnType<typeof toolCardSchema>>;
export type TurnOutcome = z.infer<ReturnType<typeof turnOutcomeSchema>>;
export type Turn = z.infer<ReturnType<typeof turnSchema>>;
export type EngineStatus = z.infer<ReturnType<typeof engineStatusSchema>>;
export type SessionState = z.infer<ReturnType<typeof sessionStateSchema>>;
export type ChatEnding = z.infer<ReturnType<typeof chatEndingSchema>>;
