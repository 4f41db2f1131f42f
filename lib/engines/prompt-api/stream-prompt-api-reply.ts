import type { ChatMessage } from '@webmcp-agents/chat';
import { modelUsage, usageFigure } from '../usage-figure';
import { promptApiEnvelopeSchema, type CompactTool, type ModelChunk, type ModelRequest, type ModelUsage } from '@webmcp-agents/local-agent';
import { createEnvelopeReader, textToEnvelope } from './envelope-reader';
import type { LanguageModelApi, LanguageModelCoreOptions, LanguageModelMessage, LanguageModelSession } from './prompt-api-types';

/**
 * The conversation a Prompt API session already holds. Chrome keeps a session's context, so
 * while a run only appends to the conversation, each step sends just the new message.
 */
export interface PromptApiConversation {
  session?: LanguageModelSession;
  /** The messages the session has seen, its own replies as the loop recorded them. */
  seen: ChatMessage[];
}

/** How long a reply may go without a piece from Chrome before the engine gives up on it. */
export interface PromptApiReplyTimeouts {
  /** Until the first piece: the model reads the prompt first, on this computer. */
  firstPieceMs: number;
  /** And besides, for each character of what the session is sent (a slow computer reads a long prompt for minutes). */
  firstPiecePerCharacterMs: number;
  /** Between two pieces once they came. */
  betweenPiecesMs: number;
}

const defaultPromptApiReplyTimeouts: PromptApiReplyTimeouts = { firstPieceMs: 120_000, firstPiecePerCharacterMs: 15, betweenPiecesMs: 60_000 };

/**
 * Why a reply failed where Chrome's own error does not say it: the session could not be started
 * (`session`, Chrome's error its `cause`), the reply stopped inside its envelope (`unfinished`), or
 * nothing came for `waitedMs` (`silent`; `started`, after its first piece).
 */
export class PromptApiFailure extends Error {
  override name = 'PromptApiFailure';
  readonly waitedMs: number | undefined;
  readonly started: boolean;
  constructor(
    readonly kind: 'session' | 'unfinished' | 'silent',
    options: { cause?: unknown; waitedMs?: number; started?: boolean } = {},
  ) {
    super(failureWords[kind], options.cause === undefined ? {} : { cause: options.cause });
    this.waitedMs = options.waitedMs;
    this.started = options.started ?? false;
  }
}

const failureWords: Record<PromptApiFailure['kind'], string> = {
  session: 'The session could not be started.',
  unfinished: 'The reply stopped inside its JSON envelope.',
  silent: 'Nothing came from the model in time.',
};

export async function* streamPromptApiReply(
  api: LanguageModelApi,
  conversation: PromptApiConversation,
  request: ModelRequest,
  sessionOptions: LanguageModelCoreOptions,
  timeouts: PromptApiReplyTimeouts = defaultPromptApiReplyTimeouts,
): AsyncGenerator<ModelChunk> {
  const { messages, signal } = request;
  const last = messages.at(-1);
  if (!last || last.role !== 'user') throw new Error('The Prompt API needs the last message to be the person\'s.');
  const history = messages.slice(0, -1);
  // A new session reads its whole history before it answers; a session kept, only the new message.
  const unread = continues(conversation, history) ? last.content.length : messages.reduce((sum, message) => sum + message.content.length, 0);
  const firstPieceMs = timeouts.firstPieceMs + unread * timeouts.firstPiecePerCharacterMs;
  const session = await sessionFor(api, conversation, history, sessionOptions, signal).catch((error: unknown) => {
    throw signal.aborted ? error : new PromptApiFailure('session', { cause: error });
  });
  const usageBefore = contextUsage(session);
  const startedAt = performance.now();
  let firstTokenAt: number | undefined;
  const reader = createEnvelopeReader();
  const shown: string[] = [];
  let completed = false;
  try {
    const stream = session.promptStreaming(last.content, {
      responseConstraint: envelopeConstraint(request.tools),
      omitResponseConstraintInput: true,
      signal,
    });
    for await (const delta of readableChunks(stream, { firstPieceMs, betweenPiecesMs: timeouts.betweenPiecesMs })) {
      firstTokenAt ??= performance.now();
      const text = reader.push(delta);
      if (text) shown.push(text);
      // A piece the envelope holds back (a call's, until it is whole) is told as an empty one: the reply goes on.
      yield { type: 'text-delta', text };
    }
    const { text: rest, cut } = reader.finish();
    // What streamed of a message stays shown; the reply is no answer, and says so.
    if (cut) throw new PromptApiFailure('unfinished');
    if (rest) shown.push(rest);
    if (rest) yield { type: 'text-delta', text: rest };
    completed = true;
  } finally {
    // A session that stopped part way holds half a reply: start the next step afresh.
    if (completed) conversation.seen = [...messages, { role: 'assistant', content: shown.join('') }];
    else forget(conversation);
  }
  const timing = { startedAt, firstTokenAt, endedAt: performance.now() };
  yield { type: 'usage', usage: await promptApiUsage(session, usageBefore, shown.join(''), timing) };
}

async function sessionFor(
  api: LanguageModelApi,
  conversation: PromptApiConversation,
  history: readonly ChatMessage[],
  options: LanguageModelCoreOptions,
  signal: AbortSignal,
): Promise<LanguageModelSession> {
  if (continues(conversation, history)) return conversation.session!;
  forget(conversation);
  const initialPrompts: LanguageModelMessage[] = history.map(({ role, content }) => ({
    role,
    content: role === 'assistant' ? textToEnvelope(content) : content,
  }));
  conversation.session = await api.create({ ...options, initialPrompts, signal });
  conversation.seen = [...history];
  return conversation.session;
}

/** Whether the session held goes on from `history`: it has seen all of it, and nothing else. */
function continues(conversation: PromptApiConversation, history: readonly ChatMessage[]): boolean {
  return conversation.session !== undefined && sameMessages(history, conversation.seen);
}

export function forget(conversation: PromptApiConversation): void {
  conversation.session?.destroy();
  conversation.session = undefined;
  conversation.seen = [];
}

/** The envelope schema, with the tool name narrowed to the tools shown this step. */
function envelopeConstraint(tools: readonly CompactTool[]): object {
  const [call, message] = promptApiEnvelopeSchema.anyOf;
  if (tools.length === 0) return message;
  const name = { type: 'string', enum: tools.map((tool) => tool.name) };
  return { anyOf: [{ ...call, properties: { ...call.properties, name } }, message] };
}

/**
 * The stream's pieces, as they come. One that does not come in time (`firstPieceMs` for the first,
 * `betweenPiecesMs` after) ends the reply, rather than hold the run, and every tab waiting for its
 * turn, until Stop.
 */
async function* readableChunks(stream: ReadableStream<string>, limits: { firstPieceMs: number; betweenPiecesMs: number }): AsyncGenerator<string> {
  const reader = stream.getReader();
  let started = false;
  try {
    for (;;) {
      const waitedMs = started ? limits.betweenPiecesMs : limits.firstPieceMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new PromptApiFailure('silent', { waitedMs, started })), waitedMs)));
      const { value, done } = await Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
      if (done) return;
      started = true;
      if (value) yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function contextUsage(session: LanguageModelSession): number | undefined {
  return session.contextUsage ?? session.inputUsage;
}

/**
 * Chrome gives no speed figures: time is measured here, tokens counted by the session. What the
 * session counts goes through `modelUsage`, as every engine's figures do: a count that is no real
 * one (a browser's NaN) is left out, not shown.
 */
async function promptApiUsage(
  session: LanguageModelSession,
  usageBefore: number | undefined,
  reply: string,
  timing: { startedAt: number; firstTokenAt: number | undefined; endedAt: number },
): Promise<ModelUsage> {
  const measure = session.measureContextUsage ?? session.measureInputUsage;
  const completionTokens = usageFigure(await measure?.call(session, reply).catch(() => undefined));
  const usageAfter = usageFigure(contextUsage(session));
  const before = usageFigure(usageBefore);
  const promptTokens = before !== undefined && usageAfter !== undefined && completionTokens !== undefined ? usageAfter - before - completionTokens : undefined;
  if (timing.firstTokenAt === undefined) return modelUsage({ completionTokens, promptTokens });
  const decodeSeconds = (timing.endedAt - timing.firstTokenAt) / 1000;
  return modelUsage({
    completionTokens,
    promptTokens,
    timeToFirstTokenMs: Math.round(timing.firstTokenAt - timing.startedAt),
    decodeTokensPerSecond: completionTokens && completionTokens > 1 && decodeSeconds > 0 ? (completionTokens - 1) / decodeSeconds : undefined,
  });
}

function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((message, index) => message.role === b[index]!.role && message.content === b[index]!.content);
}
