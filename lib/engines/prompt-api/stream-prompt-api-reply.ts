import type { ChatMessage } from '@webmcp-agents/chat';
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

export async function* streamPromptApiReply(
  api: LanguageModelApi,
  conversation: PromptApiConversation,
  request: ModelRequest,
  sessionOptions: LanguageModelCoreOptions,
): AsyncGenerator<ModelChunk> {
  const { messages, signal } = request;
  const last = messages.at(-1);
  if (!last || last.role !== 'user') throw new Error('The Prompt API needs the last message to be the person\'s.');
  const session = await sessionFor(api, conversation, messages.slice(0, -1), sessionOptions, signal);
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
    for await (const delta of readableChunks(stream)) {
      firstTokenAt ??= performance.now();
      const text = reader.push(delta);
      if (text) shown.push(text);
      // A piece the envelope holds back (a call's, until it is whole) is told as an empty one: the reply goes on.
      yield { type: 'text-delta', text };
    }
    const rest = reader.finish();
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
  if (conversation.session && sameMessages(history, conversation.seen)) return conversation.session;
  forget(conversation);
  const initialPrompts: LanguageModelMessage[] = history.map(({ role, content }) => ({
    role,
    content: role === 'assistant' ? textToEnvelope(content) : content,
  }));
  conversation.session = await api.create({ ...options, initialPrompts, signal });
  conversation.seen = [...history];
  return conversation.session;
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

async function* readableChunks(stream: ReadableStream<string>): AsyncGenerator<string> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function contextUsage(session: LanguageModelSession): number | undefined {
  return session.contextUsage ?? session.inputUsage;
}

/** Chrome gives no speed figures: time is measured here, tokens counted by the session. */
async function promptApiUsage(
  session: LanguageModelSession,
  usageBefore: number | undefined,
  reply: string,
  timing: { startedAt: number; firstTokenAt: number | undefined; endedAt: number },
): Promise<ModelUsage> {
  const usage: ModelUsage = {};
  const measure = session.measureContextUsage ?? session.measureInputUsage;
  const completionTokens = await measure?.call(session, reply).catch(() => undefined);
  if (completionTokens !== undefined) usage.completionTokens = completionTokens;
  const usageAfter = contextUsage(session);
  if (usageBefore !== undefined && usageAfter !== undefined && completionTokens !== undefined) {
    const promptTokens = usageAfter - usageBefore - completionTokens;
    if (promptTokens >= 0) usage.promptTokens = promptTokens;
  }
  if (timing.firstTokenAt === undefined) return usage;
  usage.timeToFirstTokenMs = Math.round(timing.firstTokenAt - timing.startedAt);
  const decodeSeconds = (timing.endedAt - timing.firstTokenAt) / 1000;
  if (completionTokens && completionTokens > 1 && decodeSeconds > 0) {
    usage.decodeTokensPerSecond = Math.round(((completionTokens - 1) / decodeSeconds) * 10) / 10;
  }
  return usage;
}

function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((message, index) => message.role === b[index]!.role && message.content === b[index]!.content);
}
